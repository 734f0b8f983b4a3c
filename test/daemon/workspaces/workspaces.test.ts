/**
 * Workspaces against real git repositories, a real daemon and real agents: create a worktree
 * with an agent in it, merge its work, retire it safely; every refusal (unmerged, dirty, busy,
 * live, removed by hand) is typed, and no git directory path ever reaches a client.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../agent/support/agent-process.ts";
import { useMockLlmServer } from "../../support/mock-llm/use-mock-llm-server.ts";
import type { DaemonClient } from "../support/daemon-client.ts";
import { type DaemonHarness, useDaemonHarnesses } from "../support/daemon-harness.ts";
import { commitFile, makeRepo, sh } from "./git-repo.ts";

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);

async function setUp(): Promise<{ h: DaemonHarness; c: DaemonClient; repo: string }> {
  const h = await startHarness();
  return { h, c: await h.unixClient(), repo: makeRepo() };
}

async function stopAgent(c: DaemonClient, agentId: string): Promise<void> {
  const from = c.messages.length;
  await c.ok({ type: "agent.terminate", agent_id: agentId });
  await c.waitFor(
    (m) => m.type === "agent_status_changed" && m.agent_id === agentId && m.runtime_state === "stopped",
    from,
  );
}

/**
 * No message at all may carry the repository's git dir (the harness also checks every workspace
 * message of every daemon test for any `/.git` path when it stops).
 */
function expectNoGitDirPaths(c: DaemonClient, repo: string): void {
  for (const message of c.messages) expect(JSON.stringify(message)).not.toContain(`${repo}/.git`);
  expect(c.gitDirLeaks).toEqual([]);
}

describe("workspace.create and retire", () => {
  test("create → the agent edits → commit → merge → retire deletes the branch and the worktree", async () => {
    const { h, c, repo } = await setUp();
    const created = await c.ok({ type: "workspace.create", cwd: repo, label: "Fix bug", model: "mock/chat" });
    const ws = created.workspace;
    expect(ws).toMatchObject({
      label: "Fix bug",
      branch: "shard/fix-bug",
      base_ref: "main",
      integration_target: "main",
    });
    expect(ws.repository_cwd).toBe(repo);
    expect(ws.cwd.startsWith(join(h.home, "worktrees"))).toBe(true);
    expect(ws.bindings).toEqual([
      { agent_id: created.agent_id, session_id: created.session_id, bound_at: expect.any(Number) },
    ]);
    expect(sh(ws.cwd, "rev-parse", "--abbrev-ref", "HEAD")).toBe("shard/fix-bug");

    // The agent writes a file in its worktree (allowed through the permission dialog).
    await c.ok({ type: "agent.attach", agent_id: created.agent_id });
    llm().enqueue(
      { steps: [{ tool_call: { name: "write", args: { path: "fix.txt", content: "fixed\n" } } }] },
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

    sh(ws.cwd, "add", "fix.txt");
    sh(ws.cwd, "-c", "user.name=T", "-c", "user.email=t@x", "commit", "-q", "-m", "fix");
    sh(repo, "merge", "-q", "--no-ff", "-m", "merge fix", "shard/fix-bug");

    // Still running: refused as live, with typed data.
    const live = await c.request({ type: "workspace.retire", workspace_id: ws.workspace_id });
    expect(live.error.code).toBe("CONFLICT");
    expect(live.error.data).toMatchObject({ kind: "live", workspace_id: ws.workspace_id });

    await stopAgent(c, created.agent_id);
    const retired = await c.ok({ type: "workspace.retire", workspace_id: ws.workspace_id });
    expect(retired.branch_deleted).toBe(true);
    expect(retired.workspace.lifecycle).toBe("retired");
    expect(retired.workspace.tombstone).toMatchObject({
      branch_disposition: "delete_if_merged",
      branch_deleted: true,
    });
    expect(existsSync(ws.cwd)).toBe(false);
    expect(sh(repo, "branch", "--list", "shard/fix-bug")).toBe("");
    const events = c.messages.filter((m) => m.type?.startsWith("workspace_")).map((m) => m.type);
    expect(events).toEqual(["workspace_created", "workspace_attached", "workspace_retired"]);
    expectNoGitDirPaths(c, repo);
  });

  test("unmerged work: confirmation_required, then delete_confirmed deletes", async () => {
    const { c, repo } = await setUp();
    const created = await c.ok({ type: "workspace.create", cwd: repo, model: "mock/chat" });
    const ws = created.workspace;
    commitFile(ws.cwd, "work.txt", "unmerged\n");
    await stopAgent(c, created.agent_id);
    const refused = await c.request({ type: "workspace.retire", workspace_id: ws.workspace_id });
    expect(refused.error.code).toBe("CONFLICT");
    expect(refused.error.data).toEqual({
      kind: "confirmation_required",
      workspace_id: ws.workspace_id,
      reason: `${ws.branch} has 1 commit(s) whose changes are not in main`,
      confirmation_disposition: "delete_confirmed",
    });
    expect(existsSync(ws.cwd)).toBe(true);
    const retired = await c.ok({
      type: "workspace.retire",
      workspace_id: ws.workspace_id,
      branch_disposition: "delete_confirmed",
    });
    expect(retired.branch_deleted).toBe(true);
  });

  test("a squash-merged branch counts as merged", async () => {
    const { c, repo } = await setUp();
    const created = await c.ok({ type: "workspace.create", cwd: repo, model: "mock/chat" });
    commitFile(created.workspace.cwd, "a.txt", "a\n");
    commitFile(created.workspace.cwd, "b.txt", "b\n");
    sh(repo, "merge", "-q", "--squash", created.workspace.branch);
    sh(repo, "commit", "-q", "-m", "squash");
    await stopAgent(c, created.agent_id);
    expect(
      (await c.ok({ type: "workspace.retire", workspace_id: created.workspace.workspace_id })).branch_deleted,
    ).toBe(true);
  });

  test("keep retires without deleting the branch", async () => {
    const { c, repo } = await setUp();
    const created = await c.ok({
      type: "workspace.create",
      cwd: repo,
      model: "mock/chat",
      branch: "keep-me",
    });
    commitFile(created.workspace.cwd, "w.txt", "w\n");
    await stopAgent(c, created.agent_id);
    const retired = await c.ok({
      type: "workspace.retire",
      workspace_id: created.workspace.workspace_id,
      branch_disposition: "keep",
    });
    expect(retired.branch_deleted).toBe(false);
    expect(sh(repo, "branch", "--list", "keep-me")).toContain("keep-me");
  });
});

describe("refusals", () => {
  test("a dirty worktree is refused and left as it is", async () => {
    const { c, repo } = await setUp();
    const created = await c.ok({ type: "workspace.create", cwd: repo, model: "mock/chat" });
    writeFileSync(join(created.workspace.cwd, "scratch.txt"), "not committed\n");
    await stopAgent(c, created.agent_id);
    const refused = await c.request({
      type: "workspace.retire",
      workspace_id: created.workspace.workspace_id,
      branch_disposition: "keep",
    });
    expect(refused.error.data).toMatchObject({ kind: "dirty" });
    expect(existsSync(join(created.workspace.cwd, "scratch.txt"))).toBe(true);
  });

  test("a busy agent is refused", async () => {
    const { c, repo } = await setUp();
    const created = await c.ok({ type: "workspace.create", cwd: repo, model: "mock/chat" });
    await c.ok({ type: "agent.attach", agent_id: created.agent_id });
    llm().enqueue({ steps: [{ text: "working" }, { hold: "ws-busy" }, { text: " done" }] });
    await c.ok({ type: "prompt", agent_id: created.agent_id, message: "work" });
    await llm().waitForHold("ws-busy");
    const refused = await c.request({
      type: "workspace.retire",
      workspace_id: created.workspace.workspace_id,
    });
    expect(refused.error.data).toMatchObject({ kind: "busy" });
    llm().release("ws-busy");
  });

  test("a worktree removed by hand: status shows the conflict, delete is refused, keep drops the record", async () => {
    const { c, repo } = await setUp();
    const created = await c.ok({ type: "workspace.create", cwd: repo, model: "mock/chat" });
    await stopAgent(c, created.agent_id);
    rmSync(created.workspace.cwd, { recursive: true, force: true });
    const status = await c.ok({ type: "workspace.status", workspace_id: created.workspace.workspace_id });
    expect(status.workspace.conflict).toEqual({ reason: "the worktree was removed outside the daemon" });
    const refused = await c.request({
      type: "workspace.retire",
      workspace_id: created.workspace.workspace_id,
    });
    expect(refused.error.data).toMatchObject({ kind: "missing_authority" });
    await c.waitType("workspace_conflict");
    const kept = await c.ok({
      type: "workspace.retire",
      workspace_id: created.workspace.workspace_id,
      branch_disposition: "keep",
    });
    expect(kept.workspace.lifecycle).toBe("retired");
    expect(sh(repo, "branch", "--list", created.workspace.branch)).toContain(created.workspace.branch);
    expectNoGitDirPaths(c, repo);
  });

  test("bad input: not a repository, unknown base ref, a branch that exists, an unknown workspace", async () => {
    const { c, repo } = await setUp();
    const notRepo = await c.request({ type: "workspace.create", cwd: tempDir("plain") });
    expect(notRepo.error).toMatchObject({ code: "INVALID_REQUEST" });
    expect(notRepo.error.message).toContain("not inside a git repository");
    const badRef = await c.request({ type: "workspace.create", cwd: repo, base_ref: "no-such-ref" });
    expect(badRef.error.message).toContain('field "base_ref": unknown ref "no-such-ref"');
    sh(repo, "branch", "taken");
    const taken = await c.request({ type: "workspace.create", cwd: repo, branch: "taken" });
    expect(taken.error).toMatchObject({ code: "CONFLICT" });
    expect(taken.error.message).toContain("taken already exists");
    const unknown = await c.request({ type: "workspace.status", workspace_id: "ws_nope" });
    expect(unknown.error.code).toBe("NOT_FOUND");
  });

  test("a branch that reads as a full ref or holds a NUL is INVALID_REQUEST, and nothing is made", async () => {
    const { h, c, repo } = await setUp();
    for (const branch of ["refs/heads/x", "refs/tags/v2", "a\u0000b"]) {
      const refused = await c.request({ type: "workspace.create", cwd: repo, branch });
      expect({ branch, code: refused.error.code }).toEqual({ branch, code: "INVALID_REQUEST" });
      expect(refused.error.message).toContain('field "branch"');
    }
    const nulRef = await c.request({ type: "workspace.create", cwd: repo, base_ref: "main\u0000" });
    expect(nulRef.error).toMatchObject({ code: "INVALID_REQUEST" });
    expect(sh(repo, "branch", "--list")).toBe("* main");
    expect(existsSync(join(h.home, "worktrees"))).toBe(false);
  });

  test("a branch named like a tag (v1, and a tag v1) retires: refs are compared in full", async () => {
    const { c, repo } = await setUp();
    sh(repo, "tag", "v1");
    const created = await c.ok({ type: "workspace.create", cwd: repo, branch: "v1", model: "mock/chat" });
    await stopAgent(c, created.agent_id);
    const retired = await c.ok({ type: "workspace.retire", workspace_id: created.workspace.workspace_id });
    expect(retired.branch_deleted).toBe(true);
    expect(sh(repo, "branch", "--list", "v1")).toBe("");
    expect(sh(repo, "tag", "--list", "v1")).toBe("v1");
  });
});

describe("list and durability", () => {
  test("two workspaces of one repository group under repository_cwd, and survive a daemon restart", async () => {
    const { h, c, repo } = await setUp();
    const a = await c.ok({ type: "workspace.create", cwd: repo, label: "one", model: "mock/chat" });
    const b = await c.ok({
      type: "workspace.create",
      cwd: a.workspace.cwd,
      label: "two",
      model: "mock/chat",
    });
    expect(b.workspace.repository_cwd).toBe(repo);
    expect(a.workspace.fingerprints.repository).toBe(b.workspace.fingerprints.repository);
    const listed = await c.ok({ type: "workspace.list", cwd: repo });
    expect(listed.workspaces.map((w: { label: string }) => w.label)).toEqual(["one", "two"]);

    await stopAgent(c, a.agent_id);
    await stopAgent(c, b.agent_id);
    await h.stop();
    const again = await startHarness({ home: h.home });
    const c2 = await again.unixClient();
    const relisted = await c2.ok({ type: "workspace.list" });
    expect(relisted.workspaces.map((w: { workspace_id: string }) => w.workspace_id)).toEqual([
      a.workspace.workspace_id,
      b.workspace.workspace_id,
    ]);
    expectNoGitDirPaths(c, repo);
    expectNoGitDirPaths(c2, repo);
  });
});

describe("workspace.diff", () => {
  test("the branch's committed work against its base: files, status, counts and hunks", async () => {
    const { c, repo } = await setUp();
    commitFile(repo, "kept.txt", "one\ntwo\nthree\n");
    const created = await c.ok({ type: "workspace.create", cwd: repo, model: "mock/chat" });
    const cwd = created.workspace.cwd;
    commitFile(cwd, "kept.txt", "one\nTWO\nthree\n");
    commitFile(cwd, "new.txt", "fresh\n");
    sh(cwd, "rm", "-q", "README.md");
    sh(cwd, "-c", "user.name=T", "-c", "user.email=t@x", "commit", "-q", "-m", "remove readme");
    // Work on the target after the branch started is not the branch's work.
    commitFile(repo, "main-only.txt", "main\n");

    const diff = await c.ok({ type: "workspace.diff", workspace_id: created.workspace.workspace_id });
    expect(diff).toMatchObject({
      branch: created.workspace.branch,
      integration_target: "main",
      truncated: false,
    });
    const byPath = Object.fromEntries(diff.files.map((f: { path: string }) => [f.path, f]));
    expect(Object.keys(byPath).sort()).toEqual(["README.md", "kept.txt", "new.txt"]);
    expect(byPath["kept.txt"]).toMatchObject({ status: "modified", additions: 1, deletions: 1 });
    expect(byPath["kept.txt"].hunks[0].lines).toEqual([" one", "-two", "+TWO", " three"]);
    expect(byPath["new.txt"]).toMatchObject({ status: "added", additions: 1, deletions: 0 });
    expect(byPath["README.md"]).toMatchObject({ status: "deleted" });
    expectNoGitDirPaths(c, repo);

    const unknown = await c.request({ type: "workspace.diff", workspace_id: "ws_nope" });
    expect(unknown.error.code).toBe("NOT_FOUND");
  });
});
