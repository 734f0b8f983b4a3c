/**
 * Workspaces and the Changes view through a `command` placement (docs/placements.md, workspaces
 * and the Changes view): `shard placement git` runs through the template (a stand-in for
 * `kubectl exec -i`), so the baseline, the worktree, the diff and the retire happen on the far
 * side with its paths, exactly as over ssh.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../agent/support/agent-process.ts";
import type { DaemonClient, Msg } from "../daemon/support/daemon-client.ts";
import { type DaemonHarness, useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { makeRepo, sh } from "../daemon/workspaces/git-repo.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { type LoggedShard, loggedShard } from "./support/logged-shard.ts";
import { execScript, type RemoteShard, remoteShard, writePlacements } from "./support/remote-shard.ts";

setDefaultTimeout(180_000);

const llm = useMockLlmServer({ clearQueueBeforeEach: true });
const startHarness = useDaemonHarnesses(llm);

async function podDaemon(): Promise<{
  h: DaemonHarness;
  c: DaemonClient;
  remote: RemoteShard;
  logged: LoggedShard;
}> {
  const h = await startHarness();
  const remote = remoteShard(llm().url);
  const logged = loggedShard(remote.shard);
  writePlacements(h.home, {
    pod: { kind: "command", argv: [execScript(), "-i", "pod-0", "--", logged.shard, "agent"] },
  });
  return { h, c: await h.unixClient(), remote, logged };
}

describe("git through a command placement", () => {
  test("agent.changes: the baseline is recorded on the far side, a later write there shows", async () => {
    const { c, logged } = await podDaemon();
    const repo = makeRepo();
    const created = await c.ok({ type: "agent.create", cwd: repo, model: "mock/chat", placement: "pod" });
    const first = await c.ok({ type: "agent.changes", agent_id: created.agent_id });
    expect(first.baseline.kind).toBe("agent_start");
    expect(sh(repo, "rev-parse", `refs/shard/baselines/${created.agent_id}`)).toBe(first.baseline.commit);
    writeFileSync(join(repo, "README.md"), "hello\nedited on the pod\n");
    const changed = await c.ok({ type: "agent.changes", agent_id: created.agent_id });
    expect(changed.files.map((f: Msg) => [f.path, f.status, f.additions])).toEqual([
      ["README.md", "modified", 1],
    ]);
    expect(logged.runs()).toContain("placement git");
  });

  test("a workspace on the pod: created there, diffed, merge-checked and retired there; its hooks run nothing", async () => {
    const { h, c, remote } = await podDaemon();
    const repo = makeRepo();
    // What an agent there could leave in the repository: a hook on checkout, an fsmonitor.
    const marks = tempDir("marks");
    writeFileSync(join(repo, ".git", "hooks", "post-checkout"), `#!/bin/sh\ntouch ${marks}/hook\n`, {
      mode: 0o755,
    });
    sh(repo, "config", "core.fsmonitor", `touch ${marks}/fsmonitor #`);
    const created = await c.ok({
      type: "workspace.create",
      cwd: repo,
      label: "Pod work",
      model: "mock/chat",
      placement: "pod",
    });
    const ws = created.workspace;
    expect(ws.placement).toBe("pod");
    expect(ws.cwd.startsWith(join(remote.home, "worktrees"))).toBe(true);
    expect(existsSync(join(h.home, "worktrees"))).toBe(false);
    writeFileSync(join(ws.cwd, "pod.txt"), "made in the pod\n");
    const changes = await c.ok({ type: "agent.changes", agent_id: created.agent_id });
    expect(changes.files.map((f: Msg) => [f.path, f.status])).toEqual([["pod.txt", "added"]]);
    // The daemon's git there ran neither (checkout, status, snapshot); the test's own git would.
    expect(existsSync(join(marks, "hook"))).toBe(false);
    expect(existsSync(join(marks, "fsmonitor"))).toBe(false);
    sh(repo, "config", "--unset", "core.fsmonitor");
    sh(ws.cwd, "add", "pod.txt");
    sh(ws.cwd, "commit", "-q", "-m", "pod work");
    const diff = await c.ok({ type: "workspace.diff", workspace_id: ws.workspace_id });
    expect(diff.files.map((f: Msg) => f.path)).toEqual(["pod.txt"]);
    const from = c.messages.length;
    await c.ok({ type: "agent.terminate", agent_id: created.agent_id });
    await c.waitFor(
      (m) =>
        m.type === "agent_status_changed" && m.agent_id === created.agent_id && m.runtime_state === "stopped",
      from,
      80_000,
    );
    sh(repo, "merge", "-q", "--ff-only", "shard/pod-work");
    const retired = await c.ok({ type: "workspace.retire", workspace_id: ws.workspace_id });
    expect(retired.branch_deleted).toBe(true);
    expect(existsSync(ws.cwd)).toBe(false);
    expect(sh(repo, "branch", "--list", "shard/pod-work")).toBe("");
    expect(existsSync(join(marks, "hook"))).toBe(false);
  });

  test("a shard there from before placement git: workspace.create is a CONFLICT saying to install, nothing made", async () => {
    const h = await startHarness();
    const old = join(tempDir("old-shard"), "shard");
    writeFileSync(
      old,
      "#!/bin/sh\necho 'shard placement: use: shard placement list, or shard placement install <name>' >&2\necho 'see `shard placement --help`' >&2\nexit 2\n",
    );
    chmodSync(old, 0o755);
    writePlacements(h.home, {
      pod: { kind: "command", argv: [execScript(), "-i", "pod-0", "--", old, "agent"] },
    });
    const c = await h.unixClient();
    const repo = makeRepo();
    const refused = await c.request({
      type: "workspace.create",
      cwd: repo,
      placement: "pod",
      model: "mock/chat",
    });
    expect(refused.error.code).toBe("CONFLICT");
    expect(refused.error.message).toContain(
      'placement "pod": shard placement git failed (exit 2: shard placement: use:',
    );
    expect(refused.error.message).toContain("older than this daemon: put this version in its image or pod");
    const unknown = await c.request({ type: "workspace.create", cwd: repo, placement: "nowhere" });
    expect(unknown.error.code).toBe("INVALID_REQUEST");
    expect(unknown.error.message).toContain('field "placement"');
    const relative = await c.request({ type: "workspace.create", cwd: "repo", placement: "pod" });
    expect(relative.error.code).toBe("INVALID_REQUEST");
    expect(relative.error.message).toContain("must be an absolute path there");
    expect(sh(repo, "branch", "--list", "--format=%(refname:short)")).toBe("main");
    expect((await c.ok({ type: "workspace.list" })).workspaces).toEqual([]);
  });
});
