/**
 * Where a new agent runs (docs/placements.md): the daemon's placements with their live runtimes
 * and caps (`placement.list`). Hidden while there is only this machine. A full placement or an
 * unusable entry is listed but cannot be picked, so the form says which placements have room.
 */
import { createResource, For, Show } from "solid-js";
import type { PlacementInfo } from "../../../../src/types/placements.ts";
import { loaded } from "../../state/attempt.ts";
import type { ControlRoom } from "../../state/control-room.ts";

export function usePlacements(room: ControlRoom) {
  // Keyed on the connection's opening: asked once it is up, and again after a reconnect.
  const [list, { refetch }] = createResource(room.online, async () =>
    loaded(await room.attempt(() => room.connection.call({ type: "placement.list" }))),
  );
  return { list: () => list.latest?.placements ?? [], refetch };
}

function placementLabel(p: PlacementInfo): string {
  if (p.problem !== undefined) return `${p.name} (unusable)`;
  const room = p.live < p.max ? `${p.max - p.live} free` : "full";
  return `${p.name === "local" ? "this machine" : p.name} · ${room}`;
}

export function PlacementPicker(props: {
  placements: PlacementInfo[];
  value: string;
  onChange: (name: string) => void;
  onFocus: () => void;
}) {
  return (
    <Show when={props.placements.length > 1}>
      <select
        aria-label="where the new agent runs"
        data-testid="create-placement"
        value={props.value}
        onFocus={() => props.onFocus()}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      >
        <For each={props.placements}>
          {(p) => (
            <option value={p.name} disabled={p.problem !== undefined || p.live >= p.max} title={p.problem}>
              {placementLabel(p)}
            </option>
          )}
        </For>
      </select>
    </Show>
  );
}
