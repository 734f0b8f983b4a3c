/**
 * Checkpoints of agents in workspaces, through a real daemon and a real git repository: an agent
 * in a workspace (and its subagent) checkpoints and restores its worktree, never the main
 * checkout; an agent in the main checkout has its own. Retiring the workspace (after the merge proof) removes its
 * sessions' checkpoints and only those; a daemon killed -9 inside the retire removes them when
 * the next one finishes the retire from its intent.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import type { DaemonClient } from "../daemon/support/daemon-client.ts";
import { DaemonProcess, useDaemonProcesses } from "../daemon/support/daemon-harness.ts";
import { commitFile, sh } from "../daemon/workspaces/git-repo.ts";
import { killDuring, killingBranchDeletion } from "../daemon/workspaces/killing-hook.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { repoWithA } from "./support/repo-with-a.ts";

setDefaultTimeout(120_000);

const llm = useMockLlmServer();
const processes = useDaemonProcesses();

async function startDaemon(home: string): Promise<{ daemon: DaemonProcess; c: DaemonClient }> {
  const daemon = new DaemonProcess(home);
  processes.push(daemon);
  await daemon.url();
  return { daemon, c: await daemon.client() };
}

/** One turn of `agentId` that writes `path`, every permission it asks allowed. */
async function writeTurn(c: DaemonClient, agentId: string, path: string, content: string): Promise<void> {
  llm().enqueue({ steps: [{ tool_call: { name: "write", args: { path, content } } }, { text: "written" }] });
  const from = c.messages.length;
  await c.ok({ type: "prompt", agent_id: agentId, message: `write ${path}` });
  let at = from;
  for (;;) {
    const next = await c.waitFor(
      (m) => m.agent_id === agentId && (m.type === "permission_request" || m.type === "turn_end"),
      at,
    );
    at = c.messages.indexOf(next) + 1;
    if (next.type === "turn_end") return;
    await c.ok({
      type: "permission_response",
      agent_id: agentId,
      request_id: next.request_id,
      choice_id: "allow_once",
    });
  }
}

async function stopAgent(c: DaemonClient, agentId: string): Promise<void> {
  const from = c.messages.length;
  await c.ok({ type: "agent.terminate", agent_id: agentId });
  await c.waitFor(
    (m) => m.type === "agent_status_changed" && m.agent_id === agentId && m.runtime_state === "stopped",
    from,
  );
}

const checkpointsOf = (home: string, sessionId: string) => join(home, "checkpoints", sessionId);

describe("checkpoints in workspaces", () => {
  test("a workspace agent checkpoints its worktree; the retire removes them, not the main checkout's", async () => {
    const home = mockHome(llm().url);
    const repo = repoWithA();
    const { c } = await startDaemon(home);

    // An agent in the main checkout, with a checkpoint of its own.
    const main = await c.ok({ type: "agent.create", cwd: repo, model: "mock/chat" });
    await c.ok({ type: "agent.attach", agent_id: main.agent_id });
    const mainSession: string = (await c.waitAgent(main.agent_id, "sync")).session_id;
    await writeTurn(c, main.agent_id, "main.txt", "main\n");
    expect(existsSync(checkpointsOf(home, mainSession))).toBe(true);

    const created = await c.ok({ type: "workspace.create", cwd: repo, label: "Undo", model: "mock/chat" });
    const ws = created.workspace;
    await c.ok({ type: "agent.attach", agent_id: created.agent_id });
    await writeTurn(c, created.agent_id, "a.txt", "in the worktree\n");
    expect(readFileSync(join(ws.cwd, "a.txt"), "utf8")).toBe("in the worktree\n");

    // Its checkpoint is of the worktree: restoring it puts the worktree's a.txt back.
    const { checkpoints } = await c.ok({ type: "list_checkpoints", agent_id: created.agent_id });
    expect(checkpoints).toHaveLength(1);
    const restored = await c.ok({
      type: "restore_checkpoint",
      agent_id: created.agent_id,
      checkpoint_id: checkpoints[0].checkpoint_id,
    });
    expect(restored.restored).toEqual(["a.txt"]);
    expect(readFileSync(join(ws.cwd, "a.txt"), "utf8")).toBe("committed\n");
    // The main checkout and the main agent's checkpoints were never touched.
    expect(readFileSync(join(repo, "a.txt"), "utf8")).toBe("committed\n");
    expect(readFileSync(join(repo, "main.txt"), "utf8")).toBe("main\n");
    const mainListed = await c.ok({ type: "list_checkpoints", agent_id: main.agent_id });
    expect(mainListed.checkpoints).toHaveLength(1);
    expect(mainListed.checkpoints[0].checkpoint_id).not.toBe(checkpoints[0].checkpoint_id);
    expect(existsSync(checkpointsOf(home, created.session_id))).toBe(true);

    // A subagent of the workspace agent runs in the worktree: its session checkpoints it too.
    const before = new Set(readdirSync(join(home, "checkpoints")));
    llm().enqueue({
      when: "TASK-SUB",
      steps: [
        { tool_call: { name: "write", args: { path: "sub.txt", content: "sub\n" } } },
        { text: "sub done" },
      ],
    });
    // The parent hears of the completed run in a turn of its own.
    llm().enqueue({ when: "<subagent_report", steps: [{ text: "noted" }] });
    const job = await c.ok({
      type: "subagent.create",
      parent_agent_id: created.agent_id,
      name: "sub",
      task: "TASK-SUB write sub.txt",
    });
    const run = job.runs[0];
    for (let at = 0; ; ) {
      const next = await c.waitFor(
        (m) =>
          (m.type === "permission_request" && m.agent_id === run.agent_id) ||
          (m.type === "subagent_run_changed" && m.run_id === run.run_id && m.state === "completed"),
        at,
      );
      at = c.messages.indexOf(next) + 1;
      if (next.type === "subagent_run_changed") break;
      await c.ok({
        type: "permission_response",
        agent_id: run.agent_id,
        request_id: next.request_id,
        choice_id: "allow_once",
      });
    }
    const reported = await c.waitFor(
      (m) =>
        m.type === "message_complete" &&
        m.agent_id === created.agent_id &&
        JSON.stringify(m).includes("noted"),
    );
    await c.waitAgent(created.agent_id, "turn_end", c.messages.indexOf(reported));
    expect(readFileSync(join(ws.cwd, "sub.txt"), "utf8")).toBe("sub\n");
    expect(existsSync(join(repo, "sub.txt"))).toBe(false);
    const subCheckpoints = readdirSync(join(home, "checkpoints")).filter((d) => !before.has(d));
    expect(subCheckpoints).toHaveLength(1);
    rmSync(join(ws.cwd, "sub.txt"));

    // A second turn, rewound with its conversation: the fork's checkpoints are the workspace's too.
    await writeTurn(c, created.agent_id, "b.txt", "b\n");
    const [beforeB] = (await c.ok({ type: "list_checkpoints", agent_id: created.agent_id })).checkpoints;
    const rewound = await c.ok({
      type: "restore_checkpoint",
      agent_id: created.agent_id,
      checkpoint_id: beforeB.checkpoint_id,
      conversation: true,
    });
    const forkSession = rewound.conversation.session_id;
    expect(existsSync(checkpointsOf(home, forkSession))).toBe(true);

    // The work is committed and merged: the retire has its merge proof.
    commitFile(ws.cwd, "work.txt", "done\n");
    sh(repo, "merge", "-q", "--ff-only", ws.branch);
    await stopAgent(c, created.agent_id);
    const retired = await c.ok({ type: "workspace.retire", workspace_id: ws.workspace_id });
    expect(retired.branch_deleted).toBe(true);
    expect(existsSync(checkpointsOf(home, created.session_id))).toBe(false);
    expect(existsSync(checkpointsOf(home, forkSession))).toBe(false);
    expect(existsSync(checkpointsOf(home, subCheckpoints[0] ?? ""))).toBe(false);
    // The main checkout's agent keeps its checkpoints.
    expect(existsSync(checkpointsOf(home, mainSession))).toBe(true);
    expect((await c.ok({ type: "list_checkpoints", agent_id: main.agent_id })).checkpoints).toHaveLength(1);
  });

  test("a retire refused for want of a merge proof keeps the checkpoints", async () => {
    const home = mockHome(llm().url);
    const repo = repoWithA();
    const { c } = await startDaemon(home);
    const created = await c.ok({ type: "workspace.create", cwd: repo, label: "Open", model: "mock/chat" });
    await c.ok({ type: "agent.attach", agent_id: created.agent_id });
    await writeTurn(c, created.agent_id, "a.txt", "unmerged\n");
    commitFile(created.workspace.cwd, "a.txt", "unmerged\n");
    await stopAgent(c, created.agent_id);
    const refused = await c.request({
      type: "workspace.retire",
      workspace_id: created.workspace.workspace_id,
    });
    expect(refused.error.code).toBe("CONFLICT");
    expect(existsSync(checkpointsOf(home, created.session_id))).toBe(true);
  });

  test("a daemon killed -9 inside the retire: the next one finishes it and removes the checkpoints", async () => {
    const home = mockHome(llm().url);
    const repo = repoWithA();
    const control = tempDir("hook");
    killingBranchDeletion(repo, control);
    const first = await startDaemon(home);
    const created = await first.c.ok({
      type: "workspace.create",
      cwd: repo,
      label: "Cut",
      model: "mock/chat",
    });
    const ws = created.workspace;
    await first.c.ok({ type: "agent.attach", agent_id: created.agent_id });
    await writeTurn(first.c, created.agent_id, "work.txt", "done\n");
    sh(ws.cwd, "add", "work.txt");
    sh(ws.cwd, "commit", "-q", "-m", "work");
    sh(repo, "merge", "-q", "--ff-only", ws.branch);
    await stopAgent(first.c, created.agent_id);
    await killDuring(control, first.daemon, first.c, {
      type: "workspace.retire",
      workspace_id: ws.workspace_id,
    });
    // Killed inside the branch deletion: the worktree is gone, the checkpoints are still there.
    expect(existsSync(ws.cwd)).toBe(false);
    expect(existsSync(checkpointsOf(home, created.session_id))).toBe(true);

    const second = await startDaemon(home);
    const status = await second.c.ok({ type: "workspace.status", workspace_id: ws.workspace_id });
    expect(status.workspace.lifecycle).toBe("retired");
    expect(existsSync(checkpointsOf(home, created.session_id))).toBe(false);
  });
});
