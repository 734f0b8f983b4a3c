/**
 * Mode, model and reasoning-level pickers for the selected agent, each shown only when its
 * runtime advertises the catalog and the switch (`sync.capabilities`). Options come from the
 * runtime's own catalog; the selection shown is the snapshot's, so a change made in another
 * client appears here as soon as its `*_changed` event arrives.
 */
import { For, Show } from "solid-js";
import type { ControlRoom } from "../../state/control-room.ts";
import { advertises, type Catalogs } from "./catalogs.ts";
import { ModelSelect } from "./model-select.tsx";

export function Pickers(props: { room: ControlRoom; agentId: string; catalogs: Catalogs }) {
  const snapshot = () => props.room.snapshot(props.agentId)();
  const capabilities = () => snapshot()?.capabilities;
  const set = (
    command: Parameters<ControlRoom["connection"]["call"]>[0],
    select: HTMLSelectElement,
    shown: string,
  ) =>
    void props.room
      .run(() => props.room.connection.call(command), props.agentId)
      .then((ok) => {
        // A refused switch leaves the old value in place: put the select back on it.
        if (!ok) select.value = shown;
      });

  return (
    <div class="pickers" data-testid="pickers">
      <Show when={advertises(capabilities(), "modes") ? props.catalogs.modes.latest : undefined}>
        {(catalog) => {
          const current = () => snapshot()?.mode ?? catalog().active;
          return (
            <label class="picker">
              <span>mode</span>
              <select
                data-testid="mode-picker"
                data-value={current()}
                onChange={(e) =>
                  set(
                    { type: "set_mode", agent_id: props.agentId, mode: e.currentTarget.value },
                    e.currentTarget,
                    current(),
                  )
                }
              >
                <For each={catalog().modes}>
                  {(mode) => (
                    <option value={mode.name} selected={mode.name === current()} title={mode.description}>
                      {mode.name}
                    </option>
                  )}
                </For>
              </select>
            </label>
          );
        }}
      </Show>
      <Show when={advertises(capabilities(), "models") ? props.catalogs.models.latest : undefined}>
        {(catalog) => (
          <ModelSelect room={props.room} agentId={props.agentId} catalog={catalog()} testId="model-picker" />
        )}
      </Show>
      <Show when={advertises(capabilities(), "reasoning") ? props.catalogs.reasoning.latest : undefined}>
        {(catalog) => {
          const current = () => snapshot()?.reasoning_level ?? catalog().active;
          const model = () => snapshot()?.model?.id ?? catalog().model.id;
          return (
            <label class="picker">
              <span>reasoning</span>
              <select
                data-testid="reasoning-picker"
                data-value={current()}
                onChange={(e) =>
                  set(
                    {
                      type: "set_reasoning_level",
                      agent_id: props.agentId,
                      model: model(),
                      effort: e.currentTarget.value,
                    },
                    e.currentTarget,
                    current(),
                  )
                }
              >
                <For each={catalog().levels}>
                  {(level) => (
                    <option
                      value={level.id}
                      selected={level.id === current()}
                      title={level.description ?? ""}
                    >
                      {level.label}
                    </option>
                  )}
                </For>
              </select>
            </label>
          );
        }}
      </Show>
    </div>
  );
}
