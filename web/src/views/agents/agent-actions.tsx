/**
 * Terminate (finish current work, then stop) and kill (stop the process now) for the selected
 * agent. Kill asks first. Both stop only the runtime: the agent and its session stay, and
 * opening it again restarts it (PROTOCOL §6.4).
 */
import { createSignal, Show } from "solid-js";
import type { ControlRoom } from "../../state/control-room.ts";

export function AgentActions(props: { room: ControlRoom; agentId: string; name: string }) {
  const [confirming, setConfirming] = createSignal(false);
  const stopped = () => props.room.agents[props.agentId]?.info.runtime_state === "stopped";
  const terminate = () =>
    void props.room.run(
      () => props.room.connection.call({ type: "agent.terminate", agent_id: props.agentId }),
      props.agentId,
    );
  const kill = async () => {
    setConfirming(false);
    await props.room.run(
      () => props.room.connection.call({ type: "agent.kill", agent_id: props.agentId, force: true }),
      props.agentId,
    );
  };
  return (
    <div class="agent-actions">
      <Show
        when={confirming()}
        fallback={
          <>
            <button type="button" data-testid="terminate-agent" disabled={stopped()} onClick={terminate}>
              Terminate
            </button>
            <button
              type="button"
              class="danger"
              data-testid="kill-agent"
              disabled={stopped()}
              onClick={() => setConfirming(true)}
            >
              Kill
            </button>
          </>
        }
      >
        <span
          class="confirm"
          role="alertdialog"
          aria-label="confirm kill"
          data-testid="kill-confirm"
          onKeyDown={(e) => {
            if (e.key === "Escape") setConfirming(false);
          }}
        >
          <span>Kill {props.name} now? Work in progress is lost; the session is kept.</span>
          <button type="button" class="danger" data-testid="kill-confirm-yes" onClick={() => void kill()}>
            Kill
          </button>
          <button
            type="button"
            data-testid="kill-confirm-no"
            ref={(el) => queueMicrotask(() => el.focus())}
            onClick={() => setConfirming(false)}
          >
            Cancel
          </button>
        </span>
      </Show>
    </div>
  );
}
