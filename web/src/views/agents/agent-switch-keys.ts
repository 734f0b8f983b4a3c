/**
 * Alt+↓ / Alt+↑ open the next / previous agent in list order (wrapping), from anywhere on the
 * page — also while typing in the composer, where Alt+arrows do nothing else.
 */
import { onCleanup } from "solid-js";
import type { ControlRoom } from "../../state/control-room.ts";
import { neighbour, placeAgents } from "./agent-tree.ts";

export function useAgentSwitchKeys(room: ControlRoom): void {
  const onKey = (event: KeyboardEvent) => {
    if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const order = placeAgents(Object.values(room.agents)).map((p) => p.row.info.agent_id);
    const next = neighbour(order, room.selected(), event.key === "ArrowDown" ? 1 : -1);
    if (next === undefined) return;
    event.preventDefault();
    room.select(next);
  };
  window.addEventListener("keydown", onKey);
  onCleanup(() => window.removeEventListener("keydown", onKey));
}
