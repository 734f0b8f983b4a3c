/**
 * The model menu of an agent (`list_models` options, `set_model` on change), shown in its
 * header and again beside a "no provider" problem. A model no provider can serve is listed
 * but cannot be picked; the selection is the agent's own (snapshot), put back on a refusal.
 */
import { For } from "solid-js";
import type { ListModelsResult } from "../../../../src/types/agent-results.ts";
import type { ControlRoom } from "../../state/control-room.ts";

export function ModelSelect(props: {
  room: ControlRoom;
  agentId: string;
  catalog: ListModelsResult;
  testId: string;
}) {
  const current = () => props.room.snapshot(props.agentId)()?.model?.id ?? props.catalog.active.id;
  const choose = (select: HTMLSelectElement) => {
    const shown = current();
    void props.room
      .run(
        () => props.room.connection.call({ type: "set_model", agent_id: props.agentId, model: select.value }),
        props.agentId,
      )
      .then((ok) => {
        if (!ok) select.value = shown;
      });
  };
  return (
    <label class="picker">
      <span>model</span>
      <select data-testid={props.testId} data-value={current()} onChange={(e) => choose(e.currentTarget)}>
        <For each={props.catalog.models}>
          {(model) => (
            <option
              value={model.id}
              selected={model.id === current()}
              disabled={model.unavailable !== undefined && model.id !== current()}
              title={model.unavailable ?? ""}
            >
              {model.unavailable !== undefined ? `${model.id} (no provider)` : model.id}
            </option>
          )}
        </For>
      </select>
    </label>
  );
}
