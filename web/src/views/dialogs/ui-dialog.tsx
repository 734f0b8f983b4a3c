/**
 * One `ui_request` of any kind (docs/protocol.md §5.3). What each kind answers with
 * (`ui_response.value`): select → the chosen option exactly as offered; confirm → "yes" / "no";
 * input and editor → the text (possibly empty); notify → "ok" once read; dismissing any of them →
 * null. Keys, while this is the active dialog and nobody is typing: 1–9 pick an option, y / n
 * confirm, Enter acknowledges a notice or moves into the text field, Escape dismisses. The field
 * never takes focus by itself, so typing in the composer never lands in a dialog.
 */
import { createSignal, For, Match, Show, Switch } from "solid-js";
import type { UiRequest } from "../../../../src/types/permissions.ts";
import type { ControlRoom } from "../../state/control-room.ts";
import { optionKeys } from "./accelerators.ts";
import { AskedBy } from "./asked-by.tsx";
import { useDialogKeys } from "./dialog-keys.ts";
import type { ResolvedLog } from "./resolved-log.ts";
import { createAnswerSender } from "./send-answer.ts";

type UiValue = string | string[] | null;

export function UiDialog(props: {
  room: ControlRoom;
  agentId: string;
  /** Set when a subagent asks, routed to this agent's view: who it is. */
  from?: string | undefined;
  request: UiRequest;
  active: boolean;
  log: ResolvedLog;
}) {
  const [value, setValue] = createSignal(props.request.prefill ?? "");
  const { sending, send } = createAnswerSender(() => ({
    room: props.room,
    agentId: props.agentId,
    requestId: props.request.request_id,
    log: props.log,
    section: () => section,
  }));
  let section: HTMLElement | undefined;
  let field: HTMLInputElement | HTMLTextAreaElement | undefined;
  const options = () => props.request.options ?? [];
  const keys = () => optionKeys(options().length);

  const respond = (answer: UiValue) =>
    send({
      type: "ui_response",
      agent_id: props.agentId,
      request_id: props.request.request_id,
      value: answer,
    });

  useDialogKeys(
    () => props.active && !sending(),
    (key) => {
      if (key === "Escape") {
        void respond(null);
        return true;
      }
      switch (props.request.kind) {
        case "select": {
          const index = keys().indexOf(key);
          const option = options()[index];
          if (option === undefined) return false;
          void respond(option);
          return true;
        }
        case "confirm":
          if (key !== "y" && key !== "n") return false;
          void respond(key === "y" ? "yes" : "no");
          return true;
        case "input":
        case "editor":
          if (key !== "Enter") return false;
          field?.focus();
          return true;
        case "notify":
          if (key !== "Enter") return false;
          void respond("ok");
          return true;
      }
    },
  );

  const submitText = () => void respond(value());

  return (
    <section
      class="dialog ui"
      classList={{
        active: props.active,
        [`notify-${props.request.notify_type ?? "info"}`]: props.request.kind === "notify",
      }}
      role={props.request.kind === "notify" ? "status" : "alertdialog"}
      aria-label={props.request.title ?? "question from the agent"}
      data-testid="ui-dialog"
      data-kind={props.request.kind}
      data-request-id={props.request.request_id}
      data-active={props.active ? "true" : "false"}
      tabindex="-1"
      ref={(el) => {
        section = el;
      }}
    >
      <AskedBy from={props.from} />
      <header class="dialog-head">
        <span class="dialog-kind">{kindLabel(props.request)}</span>
        <Show when={props.request.title}>{(title) => <h3>{title()}</h3>}</Show>
      </header>
      <Show when={props.request.message}>{(message) => <p class="dialog-prompt">{message()}</p>}</Show>
      <Switch>
        <Match when={props.request.kind === "select"}>
          <div class="choices">
            <For each={options()}>
              {(option, i) => (
                <button
                  type="button"
                  class="choice"
                  disabled={sending()}
                  aria-keyshortcuts={keys()[i()]}
                  data-testid="ui-option"
                  onClick={() => void respond(option)}
                >
                  <Show when={keys()[i()]}>{(key) => <kbd>{key()}</kbd>}</Show>
                  <span>{option}</span>
                </button>
              )}
            </For>
          </div>
        </Match>
        <Match when={props.request.kind === "confirm"}>
          <div class="choices">
            <button
              type="button"
              class="choice intent-allow"
              disabled={sending()}
              aria-keyshortcuts="y"
              data-testid="ui-yes"
              onClick={() => void respond("yes")}
            >
              <kbd>y</kbd>
              <span>Yes</span>
            </button>
            <button
              type="button"
              class="choice"
              disabled={sending()}
              aria-keyshortcuts="n"
              data-testid="ui-no"
              onClick={() => void respond("no")}
            >
              <kbd>n</kbd>
              <span>No</span>
            </button>
          </div>
        </Match>
        <Match when={props.request.kind === "input" || props.request.kind === "editor"}>
          <form
            class="ui-text"
            onSubmit={(e) => {
              e.preventDefault();
              submitText();
            }}
          >
            <Show
              when={props.request.kind === "editor"}
              fallback={
                <input
                  ref={(el) => {
                    field = el;
                  }}
                  aria-label="answer"
                  data-testid="ui-field"
                  value={value()}
                  placeholder={props.request.placeholder ?? ""}
                  disabled={sending()}
                  onInput={(e) => setValue(e.currentTarget.value)}
                  onKeyDown={(e) => {
                    if (e.key === "Escape") e.currentTarget.blur();
                  }}
                />
              }
            >
              <textarea
                ref={(el) => {
                  field = el;
                }}
                aria-label="answer"
                data-testid="ui-field"
                rows={8}
                value={value()}
                placeholder={props.request.placeholder ?? ""}
                disabled={sending()}
                onInput={(e) => setValue(e.currentTarget.value)}
                onKeyDown={(e) => {
                  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
                    e.preventDefault();
                    submitText();
                  } else if (e.key === "Escape") e.currentTarget.blur();
                }}
              />
            </Show>
            <div class="choices">
              <button type="submit" class="choice intent-allow" disabled={sending()} data-testid="ui-submit">
                <span>Submit</span>
                <span class="muted">{props.request.kind === "editor" ? "Ctrl+Enter" : "Enter"}</span>
              </button>
            </div>
          </form>
        </Match>
        <Match when={props.request.kind === "notify"}>
          <div class="choices">
            <button
              type="button"
              class="choice"
              disabled={sending()}
              aria-keyshortcuts="Enter"
              data-testid="ui-ok"
              onClick={() => void respond("ok")}
            >
              <kbd>Enter</kbd>
              <span>OK</span>
            </button>
          </div>
        </Match>
      </Switch>
      <Show when={props.request.kind !== "notify"}>
        <button
          type="button"
          class="link dismiss"
          disabled={sending()}
          aria-keyshortcuts="Escape"
          data-testid="ui-dismiss"
          onClick={() => void respond(null)}
        >
          Dismiss <kbd>Esc</kbd>
        </button>
      </Show>
    </section>
  );
}

function kindLabel(request: UiRequest): string {
  switch (request.kind) {
    case "select":
      return "Choose";
    case "confirm":
      return "Confirm";
    case "input":
      return "Answer";
    case "editor":
      return "Edit";
    case "notify":
      return request.notify_type === "error"
        ? "Error"
        : request.notify_type === "warning"
          ? "Warning"
          : "Notice";
  }
}
