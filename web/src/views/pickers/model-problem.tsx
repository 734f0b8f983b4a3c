/**
 * Says, right above the composer, that the open agent's model has no provider (the runtime's
 * `unavailable` reason from `list_models`), with the model menu beside it, so the fix is one
 * choice away instead of a failed prompt and a notice.
 */
import { Show } from "solid-js";
import type { ControlRoom } from "../../state/control-room.ts";
import type { Catalogs } from "./catalogs.ts";
import { ModelSelect } from "./model-select.tsx";

export function ModelProblem(props: { room: ControlRoom; agentId: string; catalogs: Catalogs }) {
  const catalog = () => props.catalogs.models.latest;
  const problem = () => {
    const list = catalog();
    const id = props.room.snapshot(props.agentId)()?.model?.id ?? list?.active.id;
    return list?.models.find((m) => m.id === id)?.unavailable;
  };
  return (
    <Show when={problem()}>
      {(reason) => (
        <div class="model-problem" role="alert" data-testid="model-problem">
          <p title={reason()}>
            This agent's model has no provider: <span data-testid="model-problem-reason">{reason()}</span>
          </p>
          <Show when={catalog()}>
            {(list) => (
              <ModelSelect
                room={props.room}
                agentId={props.agentId}
                catalog={list()}
                testId="model-problem-picker"
              />
            )}
          </Show>
        </div>
      )}
    </Show>
  );
}
