/** The agent list's order: oldest first, each subagent right under its parent, indented. */
import type { AgentInfo } from "../../../../src/types/agent-info.ts";
import type { AgentRow } from "../../state/control-room.ts";

export interface PlacedRow {
  row: AgentRow;
  depth: number;
}

export function agentName(info: AgentInfo): string {
  return info.name ?? info.display_name ?? info.alias ?? info.agent_id;
}

/** Depth-first; an agent whose parent is not listed is a root (its parent may be gone). */
export function placeAgents(rows: readonly AgentRow[]): PlacedRow[] {
  const byCreation = [...rows].sort((a, b) => a.info.created_at - b.info.created_at);
  const ids = new Set(byCreation.map((r) => r.info.agent_id));
  const children = new Map<string, AgentRow[]>();
  const roots: AgentRow[] = [];
  for (const row of byCreation) {
    const parent = row.info.parent_agent_id;
    if (parent !== undefined && parent !== row.info.agent_id && ids.has(parent)) {
      const list = children.get(parent) ?? [];
      list.push(row);
      children.set(parent, list);
    } else {
      roots.push(row);
    }
  }
  const placed: PlacedRow[] = [];
  const seen = new Set<string>();
  const visit = (row: AgentRow, depth: number) => {
    if (seen.has(row.info.agent_id)) return;
    seen.add(row.info.agent_id);
    placed.push({ row, depth });
    for (const child of children.get(row.info.agent_id) ?? []) visit(child, depth + 1);
  };
  for (const root of roots) visit(root, 0);
  // A parent cycle has no root: list what is left flat rather than drop it.
  for (const row of byCreation) visit(row, 0);
  return placed;
}

/** The agent `step` rows away from `current` in list order, wrapping around. */
export function neighbour(
  order: readonly string[],
  current: string | undefined,
  step: 1 | -1,
): string | undefined {
  if (order.length === 0) return undefined;
  const at = current === undefined ? -1 : order.indexOf(current);
  if (at < 0) return step === 1 ? order[0] : order[order.length - 1];
  return order[(at + step + order.length) % order.length];
}
