/**
 * Writes to the selected agent. Idle: a prompt. Mid-turn the choice is explicit: steer (into
 * the running turn) or follow-up (after it). Enter sends, Shift+Enter is a new line, Escape
 * aborts a running turn.
 */
import { createSignal, Show } from "solid-js";
import type { StreamingBehavior } from "../../../../src/types/agent-commands.ts";
import type { ControlRoom } from "../../state/control-room.ts";

export function Composer(props: { room: ControlRoom; agentId: string }) {
  const [text, setText] = createSignal("");
  const [behavior, setBehavior] = createSignal<StreamingBehavior>("steer");
  const busy = () => {
    const status = props.room.snapshot(props.agentId)()?.status;
    return status !== undefined && status !== "idle" && status !== "error";
  };
  const send = async () => {
    const message = text();
    if (message.trim() === "") return;
    const command = busy()
      ? ({ type: "prompt", agent_id: props.agentId, message, streaming_behavior: behavior() } as const)
      : ({ type: "prompt", agent_id: props.agentId, message } as const);
    if (await props.room.run(() => props.room.connection.call(command), props.agentId)) setText("");
  };
  const abort = () =>
    void props.room.run(
      () => props.room.connection.call({ type: "abort", agent_id: props.agentId }),
      props.agentId,
    );
  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <textarea
        aria-label="message"
        data-testid="composer-input"
        placeholder={busy() ? "Steer the running turn, or queue a follow-up…" : "Ask the agent…"}
        value={text()}
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            void send();
          } else if (e.key === "Escape" && busy()) {
            e.preventDefault();
            abort();
          }
        }}
      />
      <div class="composer-actions">
        <Show when={busy()}>
          <label>
            <input
              type="radio"
              name="behavior"
              checked={behavior() === "steer"}
              onChange={() => setBehavior("steer")}
            />
            steer
          </label>
          <label>
            <input
              type="radio"
              name="behavior"
              checked={behavior() === "follow_up"}
              onChange={() => setBehavior("follow_up")}
            />
            follow-up
          </label>
          <button type="button" class="danger" onClick={abort}>
            Abort
          </button>
        </Show>
        <button type="submit" data-testid="send" disabled={text().trim() === ""}>
          Send
        </button>
      </div>
    </form>
  );
}
