/**
 * Workspaces on an `ssh` placement (docs/placements.md, workspaces and the Changes view), over
 * a real OpenSSH server: the worktree is made in the placement's repository by git there (under
 * that side's `$SHARD_HOME/worktrees`), the agent runs in it there, a turn's write shows in the
 * Changes view, the branch diff and the merge check run there, and the retire removes the
 * worktree and the merged branch there. A daemon killed -9 right after the far side's
 * `git worktree add` finds its intent at the next start and undoes the create through the
 * placement; a retry with the same label works.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { mockHome } from "../agent/support/agent-process.ts";
import type { DaemonClient, Msg } from "../daemon/support/daemon-client.ts";
import { DaemonProcess, useDaemonHarnesses, useDaemonProcesses } from "../daemon/support/daemon-harness.ts";
import { makeRepo, sh } from "../daemon/workspaces/git-repo.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { type LoggedShard, loggedShard } from "./support/logged-shard.ts";
import { type RemoteShard, remoteShard } from "./support/remote-shard.ts";
import { overSsh, overSshOk, placeSshBox, startingOk, useSshd } from "./support/ssh-test.ts";
import { hasSshd } from "./support/sshd.ts";

setDefaultTimeout(180_000);

if (!hasSshd)
  console.log(
    "test/placements/ssh-workspaces: SKIPPED: no /usr/sbin/sshd here (apt-get install openssh-server)",
  );

const llm = useMockLlmServer({ clearQueueBeforeEach: true });
const startHarness = useDaemonHarnesses(llm);
const processes = useDaemonProcesses();
const server = useSshd();

function placeBox(home: string): { remote: RemoteShard; logged: LoggedShard } {
  const remote = remoteShard(llm().url);
  const logged = loggedShard(remote.shard);
  placeSshBox(home, server(), logged.shard);
  return { remote, logged };
}

async function stopAgent(c: DaemonClient, agentId: string): Promise<void> {
  const from = c.messages.length;
  await c.ok({ type: "agent.terminate", agent_id: agentId });
  // A remote runtime's stop goes over the link: a generous bound on a loaded machine.
  await c.waitFor(
    (m) => m.type === "agent_status_changed" && m.agent_id === agentId && m.runtime_state === "stopped",
    from,
    80_000,
  );
}

function branches(repo: string): string {
  return sh(repo, "branch", "--list", "--format=%(refname:short)");
}

describe.skipIf(!hasSshd)("workspaces on an ssh placement", () => {
  test("create there → a turn writes in it → changes, diff → merge → retire removes it there", async () => {
    const h = await startHarness();
    const { remote, logged } = placeBox(h.home);
    const repo = makeRepo();
    const c = await h.unixClient();
    const created = await startingOk(c, {
      type: "workspace.create",
      cwd: repo,
      label: "Remote fix",
      model: "mock/chat",
      placement: "box",
    });
    const ws = created.workspace;
    expect(ws).toMatchObject({ placement: "box", branch: "shard/remote-fix", repository_cwd: repo });
    // The far side's worktrees folder, not the daemon's.
    expect(ws.cwd.startsWith(join(remote.home, "worktrees"))).toBe(true);
    expect(existsSync(join(h.home, "worktrees"))).toBe(false);
    expect(sh(ws.cwd, "rev-parse", "--abbrev-ref", "HEAD")).toBe("shard/remote-fix");
    const list = await c.ok({ type: "agent.list" });
    const info = list.agents.find((a: Msg) => a.agent_id === created.agent_id);
    expect(info).toMatchObject({ placement: "box", cwd: ws.cwd });
    expect(logged.runs()).toContain("placement git");

    // A turn on the placement writes in the worktree (allowed through the permission dialog).
    await c.ok({ type: "agent.attach", agent_id: created.agent_id });
    llm().enqueue(
      { steps: [{ tool_call: { name: "write", args: { path: "fix.txt", content: "fixed there\n" } } }] },
      { steps: [{ text: "wrote it" }] },
    );
    const from = c.messages.length;
    await c.ok({ type: "prompt", agent_id: created.agent_id, message: "fix it" });
    const ask = await c.waitAgent(created.agent_id, "permission_request", from);
    const allow = ask.choices.find((x: { intent: string }) => x.intent === "allow").id;
    c.send({
      type: "permission_response",
      agent_id: created.agent_id,
      request_id: ask.request_id,
      choice_id: allow,
    });
    await c.waitAgent(created.agent_id, "turn_end", from);
    expect(existsSync(join(ws.cwd, "fix.txt"))).toBe(true);
    expect(existsSync(join(repo, "fix.txt"))).toBe(false);

    const changes = await overSshOk(c, { type: "agent.changes", agent_id: created.agent_id });
    expect(changes.baseline).toMatchObject({
      kind: "workspace",
      workspace_id: ws.workspace_id,
      retired: false,
    });
    expect(changes.files.map((f: Msg) => [f.path, f.status])).toEqual([["fix.txt", "added"]]);

    sh(ws.cwd, "add", "fix.txt");
    sh(ws.cwd, "commit", "-q", "-m", "fix");
    const diff = await overSshOk(c, { type: "workspace.diff", workspace_id: ws.workspace_id });
    expect(diff.merge_base).toBe(sh(repo, "rev-parse", "main"));
    expect(diff.files.map((f: Msg) => [f.path, f.status, f.additions])).toEqual([["fix.txt", "added", 1]]);

    await stopAgent(c, created.agent_id);
    // Not merged yet: the merge check there asks for a confirmation.
    const unmerged = await overSsh(c, { type: "workspace.retire", workspace_id: ws.workspace_id });
    expect(unmerged.error.code).toBe("CONFLICT");
    expect(unmerged.error.data).toMatchObject({ kind: "confirmation_required" });

    sh(repo, "merge", "-q", "--no-ff", "-m", "merge fix", "shard/remote-fix");
    const retired = await overSshOk(c, { type: "workspace.retire", workspace_id: ws.workspace_id });
    expect(retired.branch_deleted).toBe(true);
    expect(retired.workspace).toMatchObject({ lifecycle: "retired", placement: "box" });
    expect(existsSync(ws.cwd)).toBe(false);
    expect(branches(repo)).toBe("main");
    expect(c.resultViolations).toEqual([]);
  });

  test("a daemon killed -9 right after git worktree add there: the next one undoes it there; a retry works", async () => {
    const home = mockHome(llm().url);
    const { remote, logged } = placeBox(home);
    const repo = makeRepo();
    const first = new DaemonProcess(home);
    processes.push(first);
    await first.url();
    const c1 = await first.client();
    logged.armKill(first.proc.pid);
    c1.send({ id: "cut-short", type: "workspace.create", cwd: repo, label: "Crash", placement: "box" });
    await first.exited;
    // What the kill left on the placement: a worktree on the new branch, and no record of it.
    const worktrees = join(remote.home, "worktrees");
    expect(readdirSync(worktrees)).toHaveLength(1);
    expect(branches(repo)).toContain("shard/crash");
    expect(readdirSync(join(home, "workspaces", "intents"))).toHaveLength(1);

    const second = new DaemonProcess(home);
    processes.push(second);
    await second.url();
    const c2 = await second.client();
    const created = await startingOk(c2, {
      type: "workspace.create",
      cwd: repo,
      label: "Crash",
      model: "mock/chat",
      placement: "box",
    });
    expect(created.workspace.branch).toBe("shard/crash");
    expect(readdirSync(worktrees)).toEqual([created.workspace.workspace_id]);
    const listed = sh(repo, "worktree", "list", "--porcelain")
      .split("\n")
      .filter((l) => l.startsWith("worktree "));
    expect(listed).toEqual([`worktree ${repo}`, `worktree ${created.workspace.cwd}`]);
    expect(readdirSync(join(home, "workspaces", "intents"))).toEqual([]);
    expect(second.stderr + second.stdout).not.toContain("cannot recover");
    await stopAgent(c2, created.agent_id);
  });
});
