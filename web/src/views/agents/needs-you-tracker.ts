/**
 * Follows every agent's status from the registry events (they reach the page for all agents,
 * attached or not) and keeps, per agent, the needs-you mark the list shows: `waiting` while it
 * waits, `finished` / `failed` until the user looks at it. Counts the marks into the tab title
 * and raises a browser notification for a new signal when the user allowed it.
 */
import { createEffect, createSignal, onCleanup } from "solid-js";
import { createStore, produce } from "solid-js/store";
import type { ControlRoom } from "../../state/control-room.ts";
import { agentName } from "./agent-tree.ts";
import {
  type AgentState,
  isWaiting,
  type NeedsYou,
  shouldNotify,
  signalOnChange,
  signalText,
  titleWithCount,
} from "./needs-you.ts";
import type { Notifications } from "./notifications.ts";

export interface NeedsYouTracker {
  marks: Record<string, NeedsYou>;
  count(): number;
}

const TITLE = "Shard";

export function createNeedsYouTracker(room: ControlRoom, notifications: Notifications): NeedsYouTracker {
  const [marks, setMarks] = createStore<Record<string, NeedsYou>>({});
  const [visible, setVisible] = createSignal(document.visibilityState === "visible");
  const onVisibility = () => setVisible(document.visibilityState === "visible");
  document.addEventListener("visibilitychange", onVisibility);
  onCleanup(() => document.removeEventListener("visibilitychange", onVisibility));

  const lookedAt = (agentId: string) => visible() && room.selected() === agentId;
  const previous = new Map<string, AgentState>();

  createEffect(() => {
    const ids = Object.keys(room.agents);
    for (const id of ids) {
      const row = room.agents[id];
      if (row === undefined) continue;
      const next: AgentState = { status: row.info.status, runtime_state: row.info.runtime_state };
      const prev = previous.get(id);
      previous.set(id, next);
      const looked = lookedAt(id);
      const signal = signalOnChange(prev, next, looked);
      setMarks(
        produce((all) => {
          if (signal !== undefined) all[id] = signal;
          else if (all[id] === "waiting" && !isWaiting(next)) delete all[id];
          else if (all[id] === "finished" && next.status === "streaming") delete all[id];
        }),
      );
      const allowed = {
        permission: notifications.permission(),
        enabled: notifications.enabled(),
        lookedAt: looked,
      };
      if (signal !== undefined && shouldNotify(signal, allowed)) {
        notifications.show(
          `${agentName(row.info)} ${signalText(signal)}`,
          row.info.cwd,
          `${id}:${signal}`,
          () => room.select(id),
        );
      }
    }
    for (const id of previous.keys()) {
      if (room.agents[id] !== undefined) continue;
      previous.delete(id);
      setMarks(produce((all) => delete all[id]));
    }
  });

  // Looking at an agent acknowledges that it finished or failed.
  createEffect(() => {
    const id = room.selected();
    if (id === undefined || !visible()) return;
    const mark = marks[id];
    if (mark === "finished" || mark === "failed") setMarks(produce((all) => delete all[id]));
  });

  const count = () => Object.keys(marks).length;
  createEffect(() => {
    document.title = titleWithCount(TITLE, count());
  });
  return { marks, count };
}
