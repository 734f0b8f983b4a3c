/**
 * A failed or interrupted turn, drawn in the transcript after the message it followed: what
 * went wrong, and for the newest one while it ends the transcript, Retry, which sends the
 * turn's prompt again as a new `prompt` (the failed attempt stays in the history).
 */
import { createSignal, Show } from "solid-js";
import type { TurnFailure } from "../../../../src/types/turn-failures.ts";
import type { ControlRoom } from "../../state/control-room.ts";
import { retryPrompt } from "./failure-rows.ts";
import { lastFailure } from "./turn-state.ts";
import "./failures.css";

export function FailureMarker(props: { room: ControlRoom; agentId: string; failure: TurnFailure }) {
  const snapshot = () => props.room.snapshot(props.agentId)();
  const [sending, setSending] = createSignal(false);
  const retry = () => {
    const s = snapshot();
    if (s === undefined || lastFailure(s)?.id !== props.failure.id) return undefined;
    return retryPrompt(s.live_window.messages, props.failure);
  };
  const send = async () => {
    const prompt = retry();
    if (prompt === undefined || sending()) return;
    setSending(true);
    await props.room.run(
      () => props.room.connection.call({ type: "prompt", agent_id: props.agentId, ...prompt }),
      props.agentId,
    );
    setSending(false);
  };
  return (
    <div
      class="turn-failure"
      role="alert"
      data-testid="turn-failure"
      data-kind={props.failure.kind}
      data-failure-id={props.failure.id}
    >
      <span class="turn-failure-title">
        {props.failure.kind === "interrupted" ? "Interrupted" : "Turn failed"}
      </span>
      <span class="turn-failure-message" data-testid="turn-failure-message">
        {props.failure.message}
      </span>
      <Show when={retry()}>
        <button
          type="button"
          data-testid="turn-failure-retry"
          disabled={sending()}
          title="Send the same prompt again"
          onClick={() => void send()}
        >
          Retry
        </button>
      </Show>
    </div>
  );
}
