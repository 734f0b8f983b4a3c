/**
 * Checkpoints through a real `shard agent` under its default sandbox (bash confined, asking):
 * a checkpoint before each turn that may change files, `list_checkpoints` newest first with what
 * each turn changed, `restore_checkpoint` undoing a `write` and a `bash` turn, the undo of a
 * restore, a file the user edited reported as CONFLICT until forced, the user's git untouched,
 * CONFLICT while a turn runs, NOT_FOUND for an unknown id, and no checkpoint in plan mode.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentProcess, Msg } from "../agent/support/agent-process.ts";
import { useAgentHarness } from "../agent/support/harness.ts";
import { sh } from "../daemon/workspaces/git-repo.ts";
import { allowedTurn } from "./support/allowed-turn.ts";
import { repoWithA } from "./support/repo-with-a.ts";
import { userGitState } from "./user-git-state.ts";

setDefaultTimeout(90_000);

const { llm, spawn } = useAgentHarness();

async function listCheckpoints(agent: AgentProcess): Promise<Msg[]> {
  const res = await agent.request({ type: "list_checkpoints" });
  expect(res.success).toBe(true);
  return res.data.checkpoints;
}

const restore = (agent: AgentProcess, checkpoint_id: string, force?: boolean) =>
  agent.request({ type: "restore_checkpoint", checkpoint_id, ...(force ? { force } : {}) });

describe("checkpoints in the agent", () => {
  test("a write turn and a bash turn are undone, a restore is undone, user edits are kept unless forced", async () => {
    const repo = repoWithA();
    const gitBefore = userGitState(repo);
    const agent = await spawn({ cwd: repo });
    const read = (name: string) => readFileSync(join(repo, name), "utf8");

    llm().enqueue({
      steps: [{ tool_call: { name: "write", args: { path: "a.txt", content: "turn one\n" } } }],
    });
    const first = await allowedTurn(agent, "write a.txt");
    expect(first.some((e) => e.type === "error")).toBe(false);
    expect(read("a.txt")).toBe("turn one\n");

    llm().enqueue({
      steps: [{ tool_call: { name: "bash", args: { command: "echo 'turn two' > a.txt; echo b > b.txt" } } }],
    });
    const second = await allowedTurn(agent, "change a.txt, create b.txt");
    // The default sandbox: bash asked, and ran confined.
    expect(second.some((e) => e.type === "permission_request")).toBe(true);
    const bashResult = second.find((e) => e.type === "tool_result");
    expect(bashResult?.is_error).toBe(false);
    expect(bashResult?.sandbox).not.toBe("off");
    expect(bashResult?.sandbox).toBeDefined();
    expect(read("a.txt")).toBe("turn two\n");
    expect(read("b.txt")).toBe("b\n");

    const turnIds = agent.events.filter((e) => e.type === "turn_start").map((e) => e.turn_id);
    const listed = await listCheckpoints(agent);
    expect(listed.map((c) => ({ turn_id: c.turn_id, files_changed: c.files_changed }))).toEqual([
      { turn_id: turnIds[1], files_changed: 2 },
      { turn_id: turnIds[0], files_changed: 1 },
    ]);
    const [beforeTwo, beforeOne] = listed;
    if (beforeTwo === undefined || beforeOne === undefined) throw new Error("two checkpoints expected");

    // Turn 2's checkpoint: turn 1's a.txt, no b.txt.
    const undoTwo = await restore(agent, beforeTwo.checkpoint_id);
    expect(undoTwo.success).toBe(true);
    expect(undoTwo.data.restored.toSorted()).toEqual(["a.txt", "b.txt"]);
    expect(read("a.txt")).toBe("turn one\n");
    expect(existsSync(join(repo, "b.txt"))).toBe(false);

    // Undo of that restore: turn 2's result is back.
    const redo = await restore(agent, undoTwo.data.undo_checkpoint_id);
    expect(redo.success).toBe(true);
    expect(read("a.txt")).toBe("turn two\n");
    expect(read("b.txt")).toBe("b\n");

    // Turn 1's checkpoint: the committed file.
    expect((await restore(agent, beforeOne.checkpoint_id)).success).toBe(true);
    expect(read("a.txt")).toBe("committed\n");
    expect(existsSync(join(repo, "b.txt"))).toBe(false);

    // The user edits a.txt: a restore that would overwrite it is refused and names it.
    writeFileSync(join(repo, "a.txt"), "the user's edit\n");
    const refused = await restore(agent, beforeTwo.checkpoint_id);
    expect(refused.success).toBe(false);
    expect(refused.error.code).toBe("CONFLICT");
    expect(refused.error.data).toEqual({ conflicts: ["a.txt"] });
    expect(refused.error.message).toContain("force: true");
    expect(read("a.txt")).toBe("the user's edit\n");
    const forced = await restore(agent, beforeTwo.checkpoint_id, true);
    expect(forced.success).toBe(true);
    expect(read("a.txt")).toBe("turn one\n");

    // The restores' undo checkpoints are listed too, newest first, without a turn.
    const after = await listCheckpoints(agent);
    expect(after).toHaveLength(6);
    expect(after.slice(0, 4).every((c) => c.turn_id === undefined)).toBe(true);
    expect(after.slice(4).map((c) => c.checkpoint_id)).toEqual([
      beforeTwo.checkpoint_id,
      beforeOne.checkpoint_id,
    ]);

    expect(userGitState(repo)).toEqual(gitBefore);
    expect(sh(repo, "status", "--porcelain")).toBe("M a.txt");
  });

  test("a turn that only reads takes no checkpoint; one that reads, then writes, is undone to before the read", async () => {
    const repo = repoWithA();
    const agent = await spawn({ cwd: repo });

    llm().enqueue({ steps: [{ tool_call: { name: "read", args: { path: "a.txt" } } }] });
    await allowedTurn(agent, "read a.txt");
    expect(await listCheckpoints(agent)).toEqual([]);

    llm().enqueue({ steps: [{ tool_call: { name: "read", args: { path: "a.txt" } } }] });
    llm().enqueue({ steps: [{ tool_call: { name: "write", args: { path: "a.txt", content: "two\n" } } }] });
    await allowedTurn(agent, "read a.txt, then write it");
    expect(readFileSync(join(repo, "a.txt"), "utf8")).toBe("two\n");
    const listed = await listCheckpoints(agent);
    expect(listed.map((c) => c.files_changed)).toEqual([1]);
    expect((await restore(agent, listed[0]?.checkpoint_id ?? "")).success).toBe(true);
    expect(readFileSync(join(repo, "a.txt"), "utf8")).toBe("committed\n");
  });

  test("CONFLICT while a turn runs, NOT_FOUND for an unknown id, no checkpoint in plan mode", async () => {
    const repo = repoWithA();
    const agent = await spawn({ cwd: repo });

    llm().enqueue({ steps: [{ tool_call: { name: "write", args: { path: "a.txt", content: "one\n" } } }] });
    await allowedTurn(agent, "write a.txt");
    const [only] = await listCheckpoints(agent);
    expect(only).toBeDefined();

    llm().enqueue({ steps: [{ text: "thinking it over" }, { hold: "mid-turn" }] });
    const from = agent.events.length;
    expect((await agent.request({ type: "prompt", message: "hold on" })).success).toBe(true);
    await llm().waitForHold("mid-turn");
    const busy = await restore(agent, only!.checkpoint_id);
    expect(busy.success).toBe(false);
    expect(busy.error.code).toBe("CONFLICT");
    expect(readFileSync(join(repo, "a.txt"), "utf8")).toBe("one\n");
    llm().release("mid-turn");
    await agent.waitTurnEnd(from);

    const unknown = await restore(agent, "0".repeat(40));
    expect(unknown.success).toBe(false);
    expect(unknown.error.code).toBe("NOT_FOUND");

    expect((await agent.request({ type: "set_mode", mode: "plan" })).success).toBe(true);
    llm().enqueue({ steps: [{ tool_call: { name: "ls", args: {} } }] });
    const planned = await allowedTurn(agent, "look around");
    expect(planned.find((e) => e.type === "tool_result")?.is_error).toBe(false);
    expect((await listCheckpoints(agent)).map((c) => c.checkpoint_id)).toEqual([only!.checkpoint_id]);
  });

  test("a checkpoint that cannot be taken is a non-fatal error and the turn goes on", async () => {
    const repo = repoWithA();
    const agent = await spawn({ cwd: repo });
    // Where the shadow repositories would go is a file: no checkpoint can be made.
    writeFileSync(join(agent.home, "checkpoints"), "not a directory\n");
    llm().enqueue({
      steps: [{ tool_call: { name: "write", args: { path: "a.txt", content: "still written\n" } } }],
    });
    const events = await allowedTurn(agent, "write a.txt");
    const error = events.find((e) => e.type === "error");
    expect(error).toMatchObject({ fatal: false });
    expect(error?.message).toContain("no checkpoint before this turn");
    expect(readFileSync(join(repo, "a.txt"), "utf8")).toBe("still written\n");
    expect(events.find((e) => e.type === "turn_end")?.end_reason).toBe("completed");
  });
});
