/**
 * A daemon killed -9 between a workspace's git side effect and its record: the intent written
 * first lets the next daemon undo a create (a retry with the same label works) and finish a
 * retire (the merged branch goes, the workspace is retired, nothing blames "outside the
 * daemon"). The kill is real and lands at an exact point: a git hook of the repository kills
 * the daemon from inside `git worktree add` (post-checkout) or inside the branch deletion
 * (reference-transaction, which then aborts it), and the test waits for those git processes.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { mockHome, tempDir } from "../../agent/support/agent-process.ts";
import { useMockLlmServer } from "../../support/mock-llm/use-mock-llm-server.ts";
import type { DaemonClient } from "../support/daemon-client.ts";
import { DaemonProcess, useDaemonProcesses } from "../support/daemon-harness.ts";
import { commitFile, makeRepo, sh } from "./git-repo.ts";
import { killDuring, killingBranchDeletion, killingHook } from "./killing-hook.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
const processes = useDaemonProcesses();

async function startDaemon(home: string): Promise<{ daemon: DaemonProcess; c: DaemonClient }> {
  const daemon = new DaemonProcess(home);
  processes.push(daemon);
  await daemon.url();
  return { daemon, c: await daemon.client() };
}

async function stopAgent(c: DaemonClient, agentId: string): Promise<void> {
  const from = c.messages.length;
  await c.ok({ type: "agent.terminate", agent_id: agentId });
  await c.waitFor(
    (m) => m.type === "agent_status_changed" && m.agent_id === agentId && m.runtime_state === "stopped",
    from,
  );
}

describe("a daemon killed -9 mid-operation", () => {
  test("inside git worktree add: the next daemon undoes it, and a retry with the same label works", async () => {
    const home = mockHome(llm().url);
    const repo = makeRepo();
    const control = tempDir("hook");
    killingHook(repo, control, "post-checkout", "", 0);
    const first = await startDaemon(home);
    await killDuring(control, first.daemon, first.c, { type: "workspace.create", cwd: repo, label: "Crash" });
    // What the kill left: a worktree on the new branch, and no record of it.
    expect(sh(repo, "branch", "--list", "shard/crash")).toContain("shard/crash");
    expect(readdirSync(join(home, "worktrees"))).toHaveLength(1);

    const second = await startDaemon(home);
    const created = await second.c.ok({
      type: "workspace.create",
      cwd: repo,
      label: "Crash",
      model: "mock/chat",
    });
    expect(created.workspace.branch).toBe("shard/crash");
    expect(readdirSync(join(home, "worktrees"))).toEqual([created.workspace.workspace_id]);
    const worktrees = sh(repo, "worktree", "list", "--porcelain")
      .split("\n")
      .filter((l) => l.startsWith("worktree "));
    expect(worktrees).toEqual([`worktree ${repo}`, `worktree ${created.workspace.cwd}`]);
    const listed = await second.c.ok({ type: "workspace.list", include_retired: true });
    expect(listed.workspaces).toHaveLength(1);
    expect(readdirSync(join(home, "workspaces", "intents"))).toEqual([]);
    await stopAgent(second.c, created.agent_id);
  });

  test("inside the branch deletion of a retire: the next daemon finishes it, no conflict, no branch left", async () => {
    const home = mockHome(llm().url);
    const repo = makeRepo();
    const control = tempDir("hook");
    killingBranchDeletion(repo, control);
    const first = await startDaemon(home);
    const created = await first.c.ok({
      type: "workspace.create",
      cwd: repo,
      label: "Done",
      model: "mock/chat",
    });
    const ws = created.workspace;
    commitFile(ws.cwd, "work.txt", "done\n");
    sh(repo, "merge", "-q", "--ff-only", ws.branch);
    await stopAgent(first.c, created.agent_id);
    await killDuring(control, first.daemon, first.c, {
      type: "workspace.retire",
      workspace_id: ws.workspace_id,
    });
    // What the kill left: the worktree removed, the merged branch still there, no tombstone.
    expect(existsSync(ws.cwd)).toBe(false);
    expect(sh(repo, "branch", "--list", ws.branch)).toContain(ws.branch);

    const second = await startDaemon(home);
    const status = await second.c.ok({ type: "workspace.status", workspace_id: ws.workspace_id });
    expect(status.workspace.lifecycle).toBe("retired");
    expect(status.workspace.conflict).toBeUndefined();
    expect(status.workspace.tombstone).toMatchObject({
      branch_disposition: "delete_if_merged",
      branch_deleted: true,
    });
    expect(sh(repo, "branch", "--list", ws.branch)).toBe("");
    expect(second.c.messages.some((m) => m.type === "workspace_conflict")).toBe(false);
  });
});
