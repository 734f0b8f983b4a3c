/**
 * Writes to the selected agent. Idle: a prompt. Mid-turn the delivery is explicit: steer (into
 * the running turn) or follow-up (after it). Images come by paste or drop. Enter sends,
 * Shift+Enter is a new line, Escape (in the composer) or the Abort button stops a running turn —
 * unless a dialog is open: then Escape moves to the dialog, whose keys answer it.
 * Sending is off while the page is not connected, and the composer says why.
 */
import { createEffect, createSignal, on, Show, untrack } from "solid-js";
import type { StreamingBehavior } from "../../../../src/types/agent-commands.ts";
import type { ControlRoom } from "../../state/control-room.ts";
import { focusActiveDialog } from "../focus/dialog-focus.ts";
import { AttachmentStrip } from "./attachment-strip.tsx";
import "./composer.css";
import { DeliveryChoice, deliveryShortcut } from "./delivery-choice.tsx";
import { type AttachError, type Attachment, filesOf, readImages } from "./image-attachments.ts";

export function Composer(props: { room: ControlRoom; agentId: string }) {
  const [text, setText] = createSignal("");
  const [attachments, setAttachments] = createSignal<Attachment[]>([]);
  const [attachError, setAttachError] = createSignal<AttachError | undefined>();
  const [behavior, setBehavior] = createSignal<StreamingBehavior>("steer");
  const [sending, setSending] = createSignal(false);
  const [dragging, setDragging] = createSignal(false);
  // One draft per agent: switching agents never carries a half-written message to another one.
  const drafts = new Map<string, { text: string; attachments: Attachment[] }>();
  let draftOf = untrack(() => props.agentId);
  createEffect(
    on(
      () => props.agentId,
      (agentId) => {
        if (agentId === draftOf) return;
        drafts.set(draftOf, { text: untrack(text), attachments: untrack(attachments) });
        draftOf = agentId;
        const draft = drafts.get(agentId);
        drafts.delete(agentId);
        setText(draft?.text ?? "");
        setAttachments(draft?.attachments ?? []);
        setAttachError(undefined);
      },
    ),
  );
  const snapshot = () => props.room.snapshot(props.agentId)();
  const busy = () => {
    const s = snapshot();
    if (s === undefined) return false;
    return s.turn_id !== undefined || (s.status !== "idle" && s.status !== "error");
  };
  const blocked = (): string | undefined => {
    const state = props.room.state();
    switch (state.kind) {
      case "open":
        return snapshot() === undefined ? "Attaching to the agent…" : undefined;
      case "connecting":
        return "Not connected to the daemon: connecting… Your text is kept.";
      case "waiting":
        return `Not connected to the daemon (${state.reason}): reconnecting soon. Your text is kept.`;
      case "not_enrolled":
        return `This browser is not enrolled: ${state.message}`;
    }
  };
  const empty = () => text().trim() === "" && attachments().length === 0;
  const canSend = () => !empty() && blocked() === undefined && !sending();

  const send = async () => {
    if (!canSend()) return;
    const message = text();
    const images = attachments().map((a) => a.image);
    const base = {
      type: "prompt",
      agent_id: props.agentId,
      message,
      ...(images.length > 0 ? { images } : {}),
    } as const;
    const command = busy() ? { ...base, streaming_behavior: behavior() } : base;
    const agentId = props.agentId;
    setSending(true);
    const sent = await props.room.run(() => props.room.connection.call(command), agentId);
    setSending(false);
    if (!sent) return;
    if (props.agentId === agentId) {
      setText("");
      setAttachments([]);
      setAttachError(undefined);
    } else {
      // The user switched agents meanwhile: the sent message leaves that agent's saved draft.
      drafts.delete(agentId);
    }
  };
  const abort = () =>
    void props.room.run(
      () => props.room.connection.call({ type: "abort", agent_id: props.agentId }),
      props.agentId,
    );
  const attach = async (files: File[]) => {
    const agentId = props.agentId;
    const { added, error } = await readImages(files, attachments());
    if (props.agentId !== agentId) {
      // Read for the agent shown when they were dropped: they join its draft, not this one.
      const draft = drafts.get(agentId);
      if (draft) draft.attachments = [...draft.attachments, ...added];
      return;
    }
    setAttachments((list) => [...list, ...added]);
    setAttachError(error);
  };

  return (
    <form
      class="composer"
      classList={{ dragging: dragging() }}
      data-testid="composer"
      data-busy={busy() ? "true" : "false"}
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
      onDragOver={(e) => {
        if (!e.dataTransfer?.types.includes("Files")) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        const files = filesOf(e.dataTransfer);
        setDragging(false);
        if (files.length === 0) return;
        e.preventDefault();
        void attach(files);
      }}
    >
      <Show when={attachments().length > 0}>
        <AttachmentStrip
          attachments={attachments()}
          onRemove={(id) => {
            setAttachments((list) => list.filter((a) => a.id !== id));
            setAttachError(undefined);
          }}
        />
      </Show>
      <Show when={attachError()}>
        {(error) => (
          <p class="composer-error" role="alert" data-testid="attach-error" data-code={error().code}>
            {error().code}: {error().message}
          </p>
        )}
      </Show>
      <textarea
        aria-label="message"
        data-testid="composer-input"
        placeholder={
          busy() ? "Steer the running turn, or queue a follow-up…" : "Ask the agent… (paste or drop images)"
        }
        value={text()}
        onInput={(e) => setText(e.currentTarget.value)}
        onPaste={(e) => {
          const files = filesOf(e.clipboardData);
          if (files.length === 0) return;
          e.preventDefault();
          void attach(files);
        }}
        onKeyDown={(e) => {
          const picked = busy() ? deliveryShortcut(e) : undefined;
          if (picked !== undefined) {
            e.preventDefault();
            setBehavior(picked);
          } else if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            void send();
          } else if (e.key === "Escape") {
            // An open dialog comes first: Escape leaves the text for it, so its keys answer.
            if (focusActiveDialog()) {
              e.preventDefault();
            } else if (busy()) {
              e.preventDefault();
              abort();
            }
          }
        }}
      />
      <div class="composer-actions">
        <Show when={blocked()}>
          {(reason) => (
            <span class="composer-blocked" role="status" data-testid="composer-blocked">
              {reason()}
            </span>
          )}
        </Show>
        <Show when={busy()}>
          <DeliveryChoice value={behavior()} onChange={setBehavior} />
          <button type="button" class="danger" data-testid="abort" aria-keyshortcuts="Escape" onClick={abort}>
            Abort <kbd>Esc</kbd>
          </button>
        </Show>
        <button type="submit" data-testid="send" disabled={!canSend()}>
          {busy() ? (behavior() === "steer" ? "Steer" : "Queue follow-up") : "Send"} <kbd>Enter</kbd>
        </button>
      </div>
    </form>
  );
}
