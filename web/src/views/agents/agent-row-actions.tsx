/**
 * Rename and delete for the selected row of the agent list. Rename edits in place (Enter saves,
 * Escape cancels); delete asks first, since it kills the runtime and drops the agent for good
 * (its session file stays). The daemon's `agent_updated` / `agent_deleted` update every list.
 */
import { createSignal, Match, Switch } from "solid-js";
import type { ControlRoom } from "../../state/control-room.ts";

type Step = "idle" | "renaming" | "confirming-delete";

export function AgentRowActions(props: { room: ControlRoom; agentId: string; name: string }) {
  const [step, setStep] = createSignal<Step>("idle");
  let nameInput: HTMLInputElement | undefined;
  const rename = async (event: SubmitEvent) => {
    event.preventDefault();
    const name = nameInput?.value.trim() ?? "";
    if (name === "" || name === props.name) {
      setStep("idle");
      return;
    }
    const ok = await props.room.run(
      () => props.room.connection.call({ type: "agent.rename", agent_id: props.agentId, name }),
      props.agentId,
    );
    if (ok) setStep("idle");
  };
  const remove = async () => {
    setStep("idle");
    await props.room.run(
      () => props.room.connection.call({ type: "agent.delete", agent_id: props.agentId }),
      props.agentId,
    );
  };
  const cancelOnEscape = (event: KeyboardEvent) => {
    if (event.key === "Escape") setStep("idle");
  };
  return (
    <div class="agent-row-actions">
      <Switch>
        <Match when={step() === "idle"}>
          <button type="button" data-testid="rename-agent" onClick={() => setStep("renaming")}>
            Rename
          </button>
          <button
            type="button"
            class="danger"
            data-testid="delete-agent"
            onClick={() => setStep("confirming-delete")}
          >
            Delete
          </button>
        </Match>
        <Match when={step() === "renaming"}>
          <form class="rename-agent" onSubmit={(e) => void rename(e)} onKeyDown={cancelOnEscape}>
            <input
              ref={(el) => {
                nameInput = el;
                queueMicrotask(() => {
                  el.focus();
                  el.select();
                });
              }}
              aria-label={`new name for ${props.name}`}
              data-testid="rename-input"
              maxLength={200}
              value={props.name}
            />
            <button type="submit" data-testid="rename-save">
              Save
            </button>
            <button type="button" onClick={() => setStep("idle")}>
              Cancel
            </button>
          </form>
        </Match>
        <Match when={step() === "confirming-delete"}>
          <div
            class="confirm"
            role="alertdialog"
            aria-label={`delete ${props.name}`}
            aria-describedby={`delete-warning-${props.agentId}`}
            data-testid="delete-confirm"
            onKeyDown={cancelOnEscape}
          >
            <span id={`delete-warning-${props.agentId}`}>
              Delete {props.name}? Its runtime is stopped and it leaves the list for good; its session is
              kept.
            </span>
            <button
              type="button"
              class="danger"
              data-testid="delete-confirm-yes"
              onClick={() => void remove()}
            >
              Delete
            </button>
            <button
              type="button"
              data-testid="delete-confirm-no"
              ref={(el) => queueMicrotask(() => el.focus())}
              onClick={() => setStep("idle")}
            >
              Cancel
            </button>
          </div>
        </Match>
      </Switch>
    </div>
  );
}
