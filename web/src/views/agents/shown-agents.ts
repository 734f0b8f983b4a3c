/**
 * Which rows the agent list shows: with a filter, the agents it matches and their parents (for
 * context); without one, every agent except finished subagents, which fold under their parent
 * until it is expanded. The selected agent is always shown.
 */
import type { AgentInfo } from "../../../../src/types/agent-info.ts";
import type { AgentRow } from "../../state/control-room.ts";
import { agentName, type PlacedRow } from "./agent-tree.ts";

export interface ShownRow {
  row: AgentRow;
  depth: number;
  /** Finished subagents right under this row (its fold toggle counts them; 0: no toggle). */
  finishedChildren: number;
  expanded: boolean;
}

export interface ListView {
  filter: string;
  /** Parents whose finished subagents are shown. */
  expanded: ReadonlySet<string>;
  selected: string | undefined;
}

export function shownAgents(placed: readonly PlacedRow[], view: ListView): ShownRow[] {
  const parentOf = new Map<string, string>();
  const children = new Map<string, string[]>();
  const stack: string[] = [];
  for (const { row, depth } of placed) {
    const id = row.info.agent_id;
    stack.length = depth;
    const parent = stack[depth - 1];
    if (parent !== undefined) {
      parentOf.set(id, parent);
      children.set(parent, [...(children.get(parent) ?? []), id]);
    }
    stack.push(id);
  }
  const byId = new Map(placed.map((p) => [p.row.info.agent_id, p.row]));
  const finished = new Map<string, boolean>();
  /** A subagent whose runtime is down, with everything under it finished too. */
  const isFinished = (id: string): boolean => {
    const known = finished.get(id);
    if (known !== undefined) return known;
    const row = byId.get(id);
    const value =
      parentOf.has(id) &&
      row !== undefined &&
      !isLive(row.info) &&
      (children.get(id) ?? []).every((child) => isFinished(child));
    finished.set(id, value);
    return value;
  };

  const query = view.filter.trim().toLowerCase();
  if (query !== "") {
    const keep = new Set<string>();
    for (const { row } of placed) {
      if (!matches(row.info, query)) continue;
      for (let id: string | undefined = row.info.agent_id; id !== undefined; id = parentOf.get(id))
        keep.add(id);
    }
    return placed
      .filter((p) => keep.has(p.row.info.agent_id))
      .map(({ row, depth }) => ({ row, depth, finishedChildren: 0, expanded: true }));
  }

  const holdsSelected = new Set<string>();
  for (let id = view.selected; id !== undefined; id = parentOf.get(id)) holdsSelected.add(id);
  const hidden = new Set<string>();
  const shown: ShownRow[] = [];
  for (const { row, depth } of placed) {
    const id = row.info.agent_id;
    const parent = parentOf.get(id);
    const folded =
      parent !== undefined &&
      (hidden.has(parent) || (isFinished(id) && !view.expanded.has(parent) && !holdsSelected.has(id)));
    if (folded) {
      hidden.add(id);
      continue;
    }
    const finishedChildren = (children.get(id) ?? []).filter((child) => isFinished(child)).length;
    shown.push({ row, depth, finishedChildren, expanded: view.expanded.has(id) });
  }
  return shown;
}

function isLive(info: AgentInfo): boolean {
  return info.runtime_state !== "stopped" && info.runtime_state !== "failed";
}

function matches(info: AgentInfo, query: string): boolean {
  return [agentName(info), info.agent_id, info.cwd, info.model, info.mode].some(
    (text) => text?.toLowerCase().includes(query) === true,
  );
}
