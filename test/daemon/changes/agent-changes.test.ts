/**
 * `agent.changes` against real git repositories and a real daemon: the baseline is the working
 * tree when the agent first started (uncommitted and untracked files too), edits, new files and
 * deletions since then show file by file, the user's index is never touched, a daemon killed -9
 * keeps the baseline, a workspace agent is compared with its workspace's base, and a hostile
 * repository config runs nothing in the daemon.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mockHome, tempDir } from "../../agent/support/agent-process.ts";
import { useMockLlmServer } from "../../support/mock-llm/use-mock-llm-server.ts";
import type { DaemonClient } from "../support/daemon-client.ts";
import { DaemonProcess, useDaemonHarnesses, useDaemonProcesses } from "../support/daemon-harness.ts";
import { makeRepo, sh } from "../workspaces/git-repo.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);
const processes = useDaemonProcesses();

interface ChangedFile {
  path: string;
  status: string;
  additions: number;
  deletions: number;
  hunks: { lines: string[] }[];
}

async function changes(c: DaemonClient, agentId: string) {
  return c.ok({ type: "agent.changes", agent_id: agentId });
}

function byPath(files: ChangedFile[]): Record<string, { status: string; lines: string[] }> {
  return Object.fromEntries(
    files.map((f) => [f.path, { status: f.status, lines: f.hunks.flatMap((h) => h.lines) }]),
  );
}

/** A repository with a tracked file, an uncommitted edit, an untracked file and an ignored one. */
function busyRepo(): string {
  const repo = makeRepo();
  writeFileSync(join(repo, ".gitignore"), "build/\n");
  writeFileSync(join(repo, "keep.txt"), "one\ntwo\n");
  writeFileSync(join(repo, "gone.txt"), "doomed\n");
  sh(repo, "add", ".");
  sh(repo, "commit", "-q", "-m", "files");
  // Dirty before the agent exists: part of its baseline, never shown as its change.
  writeFileSync(join(repo, "README.md"), "hello\nuser's own edit\n");
  writeFileSync(join(repo, "notes.txt"), "user's untracked notes\n");
  return repo;
}

/** What an agent does to the working tree (the changes view sees the disk, whoever wrote it). */
function agentEdits(repo: string): void {
  writeFileSync(join(repo, "keep.txt"), "one\nTWO\n");
  writeFileSync(join(repo, "new.txt"), "brand new\n");
  rmSync(join(repo, "gone.txt"));
  mkdirSync(join(repo, "build"), { recursive: true });
  writeFileSync(join(repo, "build", "out.bin"), "ignored\n");
}

describe("agent.changes", () => {
  test("edits, new untracked files and deletions since the agent started; the user's own work is baseline", async () => {
    const h = await startHarness();
    const c = await h.unixClient();
    const repo = busyRepo();
    const { agent_id } = await c.ok({ type: "agent.create", cwd: repo, model: "mock/chat" });

    const untouched = await changes(c, agent_id);
    const baseline: string = untouched.baseline.commit;
    expect(untouched.baseline.kind).toBe("agent_start");
    expect(baseline).toMatch(/^[0-9a-f]{40}$/);
    expect(untouched.files).toEqual([]);
    expect(untouched.truncated).toBe(false);
    // The baseline is anchored by a ref of ours, and the manifest holds it.
    expect(sh(repo, "rev-parse", `refs/shard/baselines/${agent_id}`)).toBe(baseline);
    const manifest = JSON.parse(readFileSync(join(h.home, "agents", agent_id, "manifest.json"), "utf8"));
    expect(manifest.baseline).toMatchObject({ kind: "git", commit: baseline });

    agentEdits(repo);
    const changed = await changes(c, agent_id);
    expect(changed.baseline.commit).toBe(baseline);
    const files = byPath(changed.files);
    expect(Object.keys(files).sort()).toEqual(["gone.txt", "keep.txt", "new.txt"]);
    expect(files["keep.txt"]).toEqual({ status: "modified", lines: [" one", "-two", "+TWO"] });
    expect(files["new.txt"]).toEqual({ status: "added", lines: ["+brand new"] });
    expect(files["gone.txt"]).toEqual({ status: "deleted", lines: ["-doomed"] });
    // The user's index is as it was: the snapshots use a private one.
    expect(sh(repo, "diff", "--cached", "--name-only")).toBe("");
    expect(sh(repo, "ls-files", "new.txt", "notes.txt")).toBe("");
    expect(h.clients.flatMap((x) => x.resultViolations)).toEqual([]);
  });

  test("a working directory outside git says so; an unknown agent is NOT_FOUND", async () => {
    const h = await startHarness();
    const c = await h.unixClient();
    const agentId = await h.createAgent(c);
    const answer = await changes(c, agentId);
    expect(answer.baseline).toMatchObject({ kind: "none", reason: "not_git" });
    expect(answer.baseline.message).toContain("not in a git repository");
    expect(answer.files).toEqual([]);
    const missing = await c.request({ type: "agent.changes", agent_id: "agent_nope" });
    expect(missing.success).toBe(false);
    expect(missing.error.code).toBe("NOT_FOUND");
  });

  test("a hostile repository config (fsmonitor, clean filter, hooks) runs nothing in the daemon", async () => {
    const h = await startHarness();
    const c = await h.unixClient();
    const repo = makeRepo();
    const marks = tempDir("marks");
    // What an agent could write into .git/config: commands git would run on status, add and update-ref.
    sh(repo, "config", "core.fsmonitor", `touch ${marks}/fsmonitor #`);
    sh(repo, "config", "filter.evil=x.clean", `touch ${marks}/clean; cat`);
    sh(repo, "config", "filter.evil=x.process", `touch ${marks}/process`);
    sh(repo, "config", "core.hooksPath", join(repo, "hooks"));
    mkdirSync(join(repo, "hooks"));
    writeFileSync(join(repo, "hooks", "reference-transaction"), `#!/bin/sh\ntouch ${marks}/hook\n`, {
      mode: 0o755,
    });
    writeFileSync(join(repo, ".gitattributes"), "*.txt filter=evil=x\n");
    writeFileSync(join(repo, "a.txt"), "before\n");
    const { agent_id } = await c.ok({ type: "agent.create", cwd: repo, model: "mock/chat" });
    writeFileSync(join(repo, "a.txt"), "after\n");
    const answer = await changes(c, agent_id);
    expect(byPath(answer.files)["a.txt"]).toEqual({ status: "modified", lines: ["-before", "+after"] });
    expect(existsSync(join(marks, "fsmonitor"))).toBe(false);
    expect(existsSync(join(marks, "clean"))).toBe(false);
    expect(existsSync(join(marks, "process"))).toBe(false);
    expect(existsSync(join(marks, "hook"))).toBe(false);
  });

  test("an agent in a workspace is compared with the workspace's base, uncommitted work too", async () => {
    const h = await startHarness();
    const c = await h.unixClient();
    const repo = makeRepo();
    const created = await c.ok({ type: "workspace.create", cwd: repo, label: "Review", model: "mock/chat" });
    const worktree = created.workspace.cwd;
    writeFileSync(join(worktree, "committed.txt"), "in a commit\n");
    sh(worktree, "add", "committed.txt");
    sh(worktree, "commit", "-q", "-m", "work");
    writeFileSync(join(worktree, "README.md"), "hello\nnot committed yet\n");
    const answer = await changes(c, created.agent_id);
    expect(answer.baseline).toMatchObject({
      kind: "workspace",
      workspace_id: created.workspace.workspace_id,
      branch: "shard/review",
      base: sh(repo, "rev-parse", "main"),
      retired: false,
    });
    const files = byPath(answer.files);
    expect(files["committed.txt"]).toEqual({ status: "added", lines: ["+in a commit"] });
    expect(files["README.md"]).toEqual({ status: "modified", lines: [" hello", "+not committed yet"] });

    // Retired (the branch kept): the same view shows the branch, now the workspace's review.
    sh(worktree, "commit", "-q", "-am", "more");
    const from = c.messages.length;
    await c.ok({ type: "agent.terminate", agent_id: created.agent_id });
    await c.waitAgent(created.agent_id, "agent_status_changed", from, (m) => m.runtime_state === "stopped");
    await c.ok({
      type: "workspace.retire",
      workspace_id: created.workspace.workspace_id,
      branch_disposition: "keep",
    });
    const retired = await changes(c, created.agent_id);
    expect(retired.baseline).toMatchObject({ kind: "workspace", retired: true });
    expect(Object.keys(byPath(retired.files)).sort()).toEqual(["README.md", "committed.txt"]);
  });
});

describe("agent.changes across a daemon killed -9", () => {
  test("the baseline recorded at create survives; the next daemon compares with it", async () => {
    const home = mockHome(llm().url);
    const repo = busyRepo();
    const first = new DaemonProcess(home);
    processes.push(first);
    await first.url();
    const c1 = await first.client();
    const { agent_id } = await c1.ok({ type: "agent.create", cwd: repo, model: "mock/chat" });
    agentEdits(repo);
    const before = await changes(c1, agent_id);
    first.kill();
    await first.exited;

    const second = new DaemonProcess(home);
    processes.push(second);
    await second.url();
    const c2 = await second.client();
    // A new runtime generation starts; the baseline is not taken again.
    await c2.ok({ type: "agent.attach", agent_id });
    writeFileSync(join(repo, "later.txt"), "after the restart\n");
    const after = await changes(c2, agent_id);
    expect(after.baseline.commit).toBe(before.baseline.commit);
    expect(Object.keys(byPath(after.files)).sort()).toEqual(["gone.txt", "keep.txt", "later.txt", "new.txt"]);
  });
});
