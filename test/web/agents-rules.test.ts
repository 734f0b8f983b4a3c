/**
 * The agent list's rules without a browser: which status changes need the user, when a
 * notification may be raised, the title count, list order with nesting, and Alt+arrow order.
 */
import { describe, expect, test } from "bun:test";
import type { AgentInfo } from "../../src/types/agent-info.ts";
import { neighbour, placeAgents } from "../../web/src/views/agents/agent-tree.ts";
import {
  type AgentState,
  shouldNotify,
  signalOnChange,
  titleWithCount,
} from "../../web/src/views/agents/needs-you.ts";

const state = (
  status: AgentState["status"],
  runtime_state: AgentState["runtime_state"] = "running",
): AgentState => ({
  status,
  runtime_state,
});

describe("needs-you signals", () => {
  test("waiting for permission or UI needs the user, once per wait, looked at or not", () => {
    expect(signalOnChange(state("streaming"), state("waiting_for_permission"), false)).toBe("waiting");
    expect(signalOnChange(state("streaming"), state("waiting_for_ui"), true)).toBe("waiting");
    expect(signalOnChange(state("waiting_for_ui"), state("waiting_for_ui"), false)).toBeUndefined();
    expect(signalOnChange(undefined, state("waiting_for_permission"), false)).toBe("waiting");
  });

  test("a turn that ends unwatched is finished; a watched one is not news", () => {
    expect(signalOnChange(state("streaming"), state("idle"), false)).toBe("finished");
    expect(signalOnChange(state("compacting"), state("idle"), false)).toBe("finished");
    expect(signalOnChange(state("streaming"), state("idle"), true)).toBeUndefined();
    expect(signalOnChange(state("idle"), state("idle"), false)).toBeUndefined();
    expect(signalOnChange(undefined, state("idle"), false)).toBeUndefined();
  });

  test("a failed runtime or an error status is failed, once", () => {
    expect(signalOnChange(state("idle"), state("idle", "failed"), true)).toBe("failed");
    expect(signalOnChange(state("streaming"), state("error"), false)).toBe("failed");
    expect(signalOnChange(state("idle", "failed"), state("idle", "failed"), false)).toBeUndefined();
  });

  test("progress never needs the user", () => {
    expect(signalOnChange(state("idle"), state("streaming"), false)).toBeUndefined();
    expect(signalOnChange(state("streaming"), state("compacting"), false)).toBeUndefined();
    expect(signalOnChange(state("idle"), state("idle", "stopped"), false)).toBeUndefined();
  });

  test("a notification needs a signal, the user's opt-in, the browser's grant, and an agent not on screen", () => {
    const allowed = { permission: "granted" as const, enabled: true, lookedAt: false };
    expect(shouldNotify("finished", allowed)).toBe(true);
    expect(shouldNotify(undefined, allowed)).toBe(false);
    expect(shouldNotify("waiting", { ...allowed, enabled: false })).toBe(false);
    expect(shouldNotify("waiting", { ...allowed, permission: "default" })).toBe(false);
    expect(shouldNotify("failed", { ...allowed, permission: "unsupported" })).toBe(false);
    expect(shouldNotify("waiting", { ...allowed, lookedAt: true })).toBe(false);
  });

  test("the title counts the agents that need the user", () => {
    expect(titleWithCount("Shard", 0)).toBe("Shard");
    expect(titleWithCount("Shard", 2)).toBe("(2) Shard");
  });
});

describe("list order", () => {
  const info = (agent_id: string, created_at: number, parent_agent_id?: string): { info: AgentInfo } => ({
    info: {
      agent_id,
      cwd: "/w",
      status: "idle",
      runtime_state: "running",
      created_at,
      ...(parent_agent_id !== undefined ? { parent_agent_id } : {}),
    },
  });

  test("oldest first, children under their parent, an orphan and a cycle still listed", () => {
    const placed = placeAgents([
      info("b", 2),
      info("a", 1),
      info("a1", 3, "a"),
      info("a1x", 5, "a1"),
      info("orphan", 4, "gone"),
      info("c1", 6, "c2"),
      info("c2", 7, "c1"),
    ]);
    expect(placed.map((p) => [p.row.info.agent_id, p.depth])).toEqual([
      ["a", 0],
      ["a1", 1],
      ["a1x", 2],
      ["b", 0],
      ["orphan", 0],
      ["c1", 0],
      ["c2", 1],
    ]);
  });

  test("Alt+arrows move one row and wrap", () => {
    const order = ["a", "b", "c"];
    expect(neighbour(order, "a", 1)).toBe("b");
    expect(neighbour(order, "c", 1)).toBe("a");
    expect(neighbour(order, "a", -1)).toBe("c");
    expect(neighbour(order, undefined, 1)).toBe("a");
    expect(neighbour(order, undefined, -1)).toBe("c");
    expect(neighbour([], "a", 1)).toBeUndefined();
  });
});
