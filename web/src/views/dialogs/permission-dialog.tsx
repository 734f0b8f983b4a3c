/**
 * One permission request: what the tool wants (its details, all as text, long ones cut like the
 * transcript's, clipped-text.tsx), whether a command would run sandboxed (a warning when it
 * would leave the sandbox), and the answers the server offers — structured `choices` when
 * present, else the legacy `options`. Each answer has a key, shown on its button, heard while
 * this is the active dialog and nobody is typing.
 */
import { createMemo, For, Show } from "solid-js";
import type { PermissionDecision, PermissionRequest } from "../../../../src/types/permissions.ts";
import type { ControlRoom } from "../../state/control-room.ts";
import { permissionSandboxLine } from "../agents/sandbox-label.ts";
import { ClippedText } from "../transcript/clipped-text.tsx";
import { DescriptorView } from "../transcript/descriptor-view.tsx";
import { LongText } from "../transcript/long-text-view.tsx";
import { standaloneParts, TranscriptContext } from "../transcript/transcript-context.ts";
import { choiceKeys, decisionKeys } from "./accelerators.ts";
import { AskedBy } from "./asked-by.tsx";
import { useDialogKeys } from "./dialog-keys.ts";
import type { ResolvedLog } from "./resolved-log.ts";
import { createAnswerSender } from "./send-answer.ts";

type Answer = { choice_id: string } | { decision: PermissionDecision };

interface AnswerButton {
  answer: Answer;
  label: string;
  description?: string;
  intent: "allow" | "persist" | "deny";
  key: string | undefined;
}

const DECISION_LABELS: Record<PermissionDecision, string> = {
  allow: "Allow",
  allow_always: "Always allow",
  deny: "Deny",
};
const DECISION_INTENTS = { allow: "allow", allow_always: "persist", deny: "deny" } as const;

export function PermissionDialog(props: {
  room: ControlRoom;
  agentId: string;
  /** Set when a subagent asks, routed to this agent's view: who it is. */
  from?: string | undefined;
  request: PermissionRequest;
  active: boolean;
  log: ResolvedLog;
}) {
  let section: HTMLElement | undefined;
  // The cut texts' and the preview's own expand state: it lives as long as the dialog.
  const previewParts = standaloneParts();
  const buttons = createMemo((): AnswerButton[] => {
    const choices = props.request.choices;
    if (choices !== undefined && choices.length > 0) {
      const keys = choiceKeys(choices);
      return choices.map((choice, i) => ({
        answer: { choice_id: choice.id },
        label: choice.label,
        ...(choice.description !== undefined ? { description: choice.description } : {}),
        intent: choice.intent,
        key: keys[i],
      }));
    }
    const keys = decisionKeys(props.request.options);
    return props.request.options.map((option, i) => ({
      answer: { decision: option },
      label: DECISION_LABELS[option],
      intent: DECISION_INTENTS[option],
      key: keys[i],
    }));
  });

  const { sending, send } = createAnswerSender(() => ({
    room: props.room,
    agentId: props.agentId,
    requestId: props.request.request_id,
    log: props.log,
    section: () => section,
  }));
  const answer = (chosen: Answer) =>
    send({
      type: "permission_response",
      agent_id: props.agentId,
      request_id: props.request.request_id,
      ...chosen,
    });

  useDialogKeys(
    () => props.active && !sending(),
    (key) => {
      const match = buttons().find((b) => b.key === key);
      if (match === undefined) return false;
      void answer(match.answer);
      return true;
    },
  );

  return (
    <section
      class="dialog permission"
      classList={{ active: props.active }}
      role="alertdialog"
      aria-label={`permission request: ${props.request.tool_name}`}
      data-testid="permission-dialog"
      data-request-id={props.request.request_id}
      data-active={props.active ? "true" : "false"}
      tabindex="-1"
      ref={(el) => {
        section = el;
      }}
    >
      <AskedBy from={props.from} />
      <header class="dialog-head">
        <span class="dialog-kind">Permission</span>
        <h3 data-testid="permission-tool">{props.request.tool_name}</h3>
      </header>
      <p class="dialog-prompt">{props.request.prompt}</p>
      <Show when={props.request.sandbox}>
        {(mode) => (
          <p
            class="permission-sandbox"
            classList={{ "sandbox-escape": mode() === "off" }}
            data-testid="permission-sandbox"
            data-mode={mode()}
          >
            {permissionSandboxLine(props.request.tool_name, mode())}
          </p>
        )}
      </Show>
      <TranscriptContext.Provider value={previewParts}>
        <Show when={(props.request.details ?? []).length === 0}>
          {/* No details from the server: the tool's input itself, as text (cut when long). */}
          <ClippedText
            partKey={`input:${props.request.request_id}`}
            text={inputText(props.request.input)}
            class="detail-input"
            testId="permission-input"
          />
        </Show>
        <Show when={(props.request.details ?? []).length > 0}>
          <dl class="details">
            <For each={props.request.details ?? []}>
              {(detail, i) => (
                <div class="detail" data-format={detail.format ?? "text"} data-testid="permission-detail">
                  <Show when={detail.label}>{(label) => <dt>{label()}</dt>}</Show>
                  <dd>
                    <Show
                      when={detail.format === "text" || detail.format === undefined}
                      fallback={
                        <ClippedText
                          partKey={`detail:${props.request.request_id}:${i()}`}
                          text={detail.value}
                        />
                      }
                    >
                      <LongText partKey={`detail:${props.request.request_id}:${i()}`} text={detail.value}>
                        {(shown) => <p>{shown()}</p>}
                      </LongText>
                    </Show>
                  </dd>
                </div>
              )}
            </For>
          </dl>
        </Show>
        <Show when={props.request.preview}>
          {(preview) => (
            <div class="permission-preview" data-testid="permission-preview">
              <p class="preview-label">The change</p>
              <DescriptorView partKey={`preview:${props.request.request_id}`} descriptor={preview()} />
            </div>
          )}
        </Show>
      </TranscriptContext.Provider>
      <div class="choices">
        <For each={buttons()}>
          {(button) => (
            <button
              type="button"
              class={`choice intent-${button.intent}`}
              classList={{ danger: button.intent === "deny" }}
              title={button.description ?? ""}
              aria-keyshortcuts={button.key}
              disabled={sending()}
              data-testid="permission-choice"
              onClick={() => void answer(button.answer)}
            >
              <Show when={button.key}>{(key) => <kbd>{key()}</kbd>}</Show>
              <span>{button.label}</span>
            </button>
          )}
        </For>
      </div>
      <Show when={props.active}>
        <p class="dialog-hint muted">
          Press the key on a button to answer; from the composer, Esc first moves here.
        </p>
      </Show>
    </section>
  );
}

function inputText(input: unknown): string {
  try {
    return JSON.stringify(input, null, 2) ?? String(input);
  } catch {
    return String(input);
  }
}
