/**
 * Terminate (finish current work, then stop) and kill (stop the process now) for the selected
 * agent. Each asks first — they sit side by side, and a slip of the finger must not stop an
 * agent. Both stop only the runtime: the agent and its session stay, and opening it again
 * restarts it (docs/protocol.md §2).
 */
import { createSignal, Show } from "solid-js";
import type { ControlRoom } from "../../state/control-room.ts";

type Stop = "terminate" | "kill";

export function AgentActions(props: { room: ControlRoom; agentId: string; name: string }) {
  const [confirming, setConfirming] = createSignal<Stop | undefined>();
  const stopped = () => props.room.agents[props.agentId]?.info.runtime_state === "stopped";
  const stop = async (how: Stop) => {
    setConfirming(undefined);
    await props.room.run(
      () =>
        how === "kill"
          ? props.room.connection.call({ type: "agent.kill", agent_id: props.agentId, force: true })
          : props.room.connection.call({ type: "agent.terminate", agent_id: props.agentId }),
      props.agentId,
    );
  };
  const question = (how: Stop) =>
    how === "kill"
      ? `Kill ${props.name} now? Work in progress is lost; the session is kept.`
      : `Terminate ${props.name}? Current work finishes, then it stops; the session is kept.`;
  return (
    <div class="agent-actions">
      <Show
        when={confirming()}
        fallback={
          <>
            <button
              type="button"
              data-testid="terminate-agent"
              disabled={stopped()}
              onClick={() => setConfirming("terminate")}
            >
              Terminate
            </button>
            <button
              type="button"
              class="danger"
              data-testid="kill-agent"
              disabled={stopped()}
              onClick={() => setConfirming("kill")}
            >
              Kill
            </button>
          </>
        }
      >
        {(how) => (
          <span
            class="confirm"
            role="alertdialog"
            aria-label={`confirm ${how()}`}
            data-testid={`${how()}-confirm`}
            onKeyDown={(e) => {
              if (e.key === "Escape") setConfirming(undefined);
            }}
          >
            <span>{question(how())}</span>
            <button
              type="button"
              class="danger"
              data-testid={`${how()}-confirm-yes`}
              onClick={() => void stop(how())}
            >
              {how() === "kill" ? "Kill" : "Terminate"}
            </button>
            <button
              type="button"
              data-testid={`${how()}-confirm-no`}
              ref={(el) => queueMicrotask(() => el.focus())}
              onClick={() => setConfirming(undefined)}
            >
              Cancel
            </button>
          </span>
        )}
      </Show>
    </div>
  );
}
