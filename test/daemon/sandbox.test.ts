/**
 * The sandbox through the daemon (docs/protocol-additions.md §18): `agent.create` chooses it and
 * every generation runs with it, `agent.list` shows it, a child never runs looser than its
 * parent, and `set_sandbox` tightens at once but loosens only when the person allows it —
 * a choice the session keeps across a restart. Needs bubblewrap, like the sandbox itself.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { runState } from "./subagents/support.ts";
import { askBash } from "./support/ask-bash.ts";
import type { DaemonClient, Msg } from "./support/daemon-client.ts";
import { useDaemonHarnesses } from "./support/daemon-harness.ts";
import { makeRepo, sh } from "./workspaces/git-repo.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);

async function listed(client: DaemonClient, agentId: string): Promise<Msg> {
  const { agents } = await client.ok({ type: "agent.list" });
  return agents.find((a: Msg) => a.agent_id === agentId);
}

/** Runs `command` through bash, allowing its question; the tool_result. */
async function runBash(client: DaemonClient, agentId: string, command: string) {
  const from = client.messages.length;
  const asked = await askBash(llm(), client, agentId, command);
  await client.ok({
    type: "permission_response",
    agent_id: agentId,
    request_id: asked.request_id,
    choice_id: "allow_once",
  });
  const result = await client.waitAgent(agentId, "tool_result", from);
  await client.waitAgent(agentId, "turn_end", from);
  return result;
}

/** set_sandbox that loosens: the response says pending, and the question it raised. */
async function loosen(
  client: DaemonClient,
  agentId: string,
  mode: string,
): Promise<{ data: Msg["data"]; asked: Msg }> {
  const from = client.messages.length;
  const data = await client.ok({ type: "set_sandbox", agent_id: agentId, mode });
  const asked = await client.waitAgent(agentId, "permission_request", from);
  return { data, asked };
}

describe("agent.create with a sandbox", () => {
  test("agent.list shows the chosen sandbox, and the runtime runs with it", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const agentId = await harness.createAgent(a, {
      sandbox: "read-only",
      sandbox_policy: "ask",
      network_allow: ["registry.npmjs.org", "registry.npmjs.org"],
    });
    const expected = {
      mode: "read-only",
      policy: "ask",
      mechanism: "bubblewrap",
      network_allow: ["registry.npmjs.org"],
    };
    expect((await listed(a, agentId)).sandbox).toEqual(expected);
    await a.ok({ type: "agent.attach", agent_id: agentId });
    const sync = await a.waitAgent(agentId, "sync");
    expect(sync.sandbox).toEqual(expected);
    expect((await listed(a, agentId)).sandbox).toEqual(expected);

    // read-only: even the agent's own directory is not writable.
    const result = await runBash(a, agentId, "touch made-here");
    expect(result.sandbox).toBe("read-only");
    expect(result.is_error).toBe(true);
    expect(existsSync(join(harness.cwd, "made-here"))).toBe(false);
  });

  test('sandbox "off" runs commands unconfined (the control)', async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const agentId = await harness.createAgent(a, { sandbox: "off" });
    await a.ok({ type: "agent.attach", agent_id: agentId });
    const result = await runBash(a, agentId, "touch made-here");
    expect(result.sandbox).toBe("off");
    expect(result.is_error).toBe(false);
    expect(existsSync(join(harness.cwd, "made-here"))).toBe(true);
    expect((await listed(a, agentId)).sandbox).toMatchObject({ mode: "off", mechanism: "none" });
  });

  test("a bad mode, policy or host is INVALID_REQUEST naming the field, and no agent is made", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const cases: [object, string][] = [
      [{ sandbox: "sideways" }, "sandbox"],
      [{ sandbox_policy: "sometimes" }, "sandbox_policy"],
      [{ network_allow: ["http://evil.example/"] }, "network_allow"],
    ];
    for (const [extra, field] of cases) {
      const res = await a.request({ type: "agent.create", cwd: harness.cwd, model: "mock/chat", ...extra });
      expect(res.success).toBe(false);
      expect(res.error.code).toBe("INVALID_REQUEST");
      expect(res.error.message).toContain(`field "${field}"`);
    }
    expect((await a.ok({ type: "agent.list" })).agents).toEqual([]);
  });
});

describe("children never run looser than their parent", () => {
  test('a child asked for "off" under a "workspace-write" parent runs "workspace-write"; stricter is kept', async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await harness.createAgent(a, {
      sandbox: "workspace-write",
      network_allow: ["example.org"],
    });
    llm().enqueue(
      { when: "TASK-LOOSE", steps: [{ hold: "loose" }, { text: "done" }] },
      { when: "TASK-STRICT", steps: [{ hold: "strict" }, { text: "done" }] },
    );
    const loose = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      name: "loose",
      task: "TASK-LOOSE",
      sandbox: "off",
    });
    expect(loose.sandbox).toEqual({ mode: "workspace-write", requested: "off" });
    const strict = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      name: "strict",
      task: "TASK-STRICT",
      sandbox: "read-only",
    });
    expect(strict.sandbox).toEqual({ mode: "read-only" });
    for (const [created, hold] of [
      [loose, "loose"],
      [strict, "strict"],
    ] as const) {
      await llm().waitForHold(hold);
      await runState(a, created.runs[0].run_id, "active");
    }
    // Each child's own runtime reports it (agent.list takes the live state while it runs).
    const child = await listed(a, loose.runs[0].agent_id);
    expect(child.sandbox).toMatchObject({ mode: "workspace-write", network_allow: ["example.org"] });
    expect((await listed(a, strict.runs[0].agent_id)).sandbox.mode).toBe("read-only");
    llm().release("loose");
    llm().release("strict");
    await runState(a, loose.runs[0].run_id, "completed");
    await runState(a, strict.runs[0].run_id, "completed");
  });

  test("a child of a read-only parent that asks nothing is read-only", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const parent = await harness.createAgent(a, { sandbox: "read-only" });
    llm().enqueue({ when: "TASK-PLAIN", steps: [{ text: "done" }] });
    const created = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      name: "p",
      task: "TASK-PLAIN",
    });
    expect(created.sandbox).toEqual({ mode: "read-only" });
    await runState(a, created.runs[0].run_id, "completed");
    expect((await listed(a, created.runs[0].agent_id)).sandbox.mode).toBe("read-only");
  });
});

describe("set_sandbox", () => {
  test("stricter applies at once; looser asks: deny keeps it, allow applies it and survives a restart", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const agentId = await harness.createAgent(a, { sandbox: "workspace-write" });
    await a.ok({ type: "agent.attach", agent_id: agentId });

    let from = a.messages.length;
    expect(await a.ok({ type: "set_sandbox", agent_id: agentId, mode: "read-only" })).toEqual({
      mode: "read-only",
      pending: false,
    });
    expect((await a.waitAgent(agentId, "sandbox_changed", from)).sandbox.mode).toBe("read-only");
    expect((await listed(a, agentId)).sandbox.mode).toBe("read-only");

    // Looser: a question, allow once or deny only; the response does not wait for it.
    const denied = await loosen(a, agentId, "workspace-write");
    expect(denied.data).toEqual({ mode: "read-only", pending: true, request_id: denied.asked.request_id });
    expect(denied.asked).toMatchObject({
      tool_name: "set_sandbox",
      input: { mode: "workspace-write" },
      prompt: "Allow loosening the sandbox from read-only to workspace-write?",
      sandbox: "workspace-write",
    });
    expect(denied.asked.choices.map((c: Msg) => c.id)).toEqual(["allow_once", "deny"]);
    from = a.messages.length;
    await a.ok({
      type: "permission_response",
      agent_id: agentId,
      request_id: denied.asked.request_id,
      choice_id: "deny",
    });
    await a.waitAgent(agentId, "permission_resolved", from);
    // A later response is the barrier: nothing changed.
    expect((await listed(a, agentId)).sandbox.mode).toBe("read-only");
    expect(a.agentEvents(agentId, from).some((m) => m.type === "sandbox_changed")).toBe(false);

    const allowed = await loosen(a, agentId, "off");
    expect(allowed.asked.prompt).toBe("Allow loosening the sandbox from read-only to off?");
    from = a.messages.length;
    await a.ok({
      type: "permission_response",
      agent_id: agentId,
      request_id: allowed.asked.request_id,
      choice_id: "allow_once",
    });
    const changed = await a.waitAgent(agentId, "sandbox_changed", from);
    expect(changed.sandbox).toMatchObject({ mode: "off", mechanism: "none" });
    expect((await listed(a, agentId)).sandbox.mode).toBe("off");

    // A new generation resumes the session, and with it the sandbox it last had.
    from = a.messages.length;
    expect(await a.ok({ type: "agent.terminate", agent_id: agentId })).toEqual({ deferred: false });
    await a.waitFor((m) => m.type === "agent_status_changed" && m.runtime_state === "stopped", from);
    expect((await listed(a, agentId)).sandbox.mode).toBe("off");
    from = a.messages.length;
    await a.ok({ type: "agent.attach", agent_id: agentId });
    expect((await a.waitAgent(agentId, "sync", from)).sandbox.mode).toBe("off");
    const result = await runBash(a, agentId, "touch after-restart");
    expect(result.sandbox).toBe("off");
    expect(existsSync(join(harness.cwd, "after-restart"))).toBe(true);
  });

  test("with nobody to answer, the headless policy denies and the sandbox stays", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const agentId = await harness.createAgent(a, { sandbox: "read-only" });
    // Attached, but answering UI requests only: no one answers a permission request.
    await a.ok({ type: "agent.attach", agent_id: agentId, answers: ["ui"] });
    const from = a.messages.length;
    const asked = await loosen(a, agentId, "off");
    expect(asked.data.pending).toBe(true);
    const resolved = await a.waitAgent(agentId, "permission_resolved", from);
    expect(resolved).toMatchObject({
      request_id: asked.asked.request_id,
      decision: "deny",
      source: "headless",
    });
    expect((await listed(a, agentId)).sandbox.mode).toBe("read-only");
  });

  test("the question belongs to no turn: a turn that ends meanwhile leaves it open", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const agentId = await harness.createAgent(a, { sandbox: "read-only" });
    await a.ok({ type: "agent.attach", agent_id: agentId });
    const { asked } = await loosen(a, agentId, "workspace-write");
    let from = a.messages.length;
    llm().enqueue({ steps: [{ text: "hello" }] });
    await a.ok({ type: "prompt", agent_id: agentId, message: "say hello" });
    await a.waitAgent(agentId, "turn_end", from);
    from = a.messages.length;
    await a.ok({
      type: "permission_response",
      agent_id: agentId,
      request_id: asked.request_id,
      choice_id: "allow_once",
    });
    expect((await a.waitAgent(agentId, "permission_resolved", from)).choice_id).toBe("allow_once");
    expect((await a.waitAgent(agentId, "sandbox_changed", from)).sandbox.mode).toBe("workspace-write");
  });

  test("an unknown mode is INVALID_REQUEST naming the field", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const agentId = await harness.createAgent(a);
    await a.ok({ type: "agent.attach", agent_id: agentId });
    const res = await a.request({ type: "set_sandbox", agent_id: agentId, mode: "sideways" });
    expect(res.success).toBe(false);
    expect(res.error.code).toBe("INVALID_REQUEST");
    expect(res.error.message).toContain(`field "mode"`);
  });
});

describe("workspaces", () => {
  test("an agent's worktree is its writable root: it commits there, and cannot see another agent's worktree", async () => {
    const harness = await startHarness();
    const a = await harness.unixClient();
    const repo = makeRepo();
    const mine = (await a.ok({
      type: "workspace.create",
      cwd: repo,
      label: "mine",
      model: "mock/chat",
    })) as Msg;
    const theirs = (await a.ok({
      type: "workspace.create",
      cwd: repo,
      label: "theirs",
      model: "mock/chat",
    })) as Msg;
    writeFileSync(join(theirs.workspace.cwd, "their-notes.txt"), "THEIR-PRIVATE-NOTES");
    await a.ok({ type: "agent.attach", agent_id: mine.agent_id });
    const result = await runBash(
      a,
      mine.agent_id,
      `echo mine > mine.txt && git add mine.txt && git -c user.email=a@b.c -c user.name=A commit -qm mine && echo committed; ` +
        `cat ${theirs.workspace.cwd}/their-notes.txt; echo x > ${theirs.workspace.cwd}/planted.txt; ls ${join(harness.home, "worktrees")}`,
    );
    const text = result.content.text as string;
    expect(result.sandbox).toBe("workspace-write");
    expect(text).toContain("committed");
    expect(text).not.toContain("THEIR-PRIVATE-NOTES");
    expect(existsSync(join(theirs.workspace.cwd, "planted.txt"))).toBe(false);
    // The commit landed in the repository (a worktree's objects live in the main git dir).
    expect(sh(repo, "log", "--oneline", mine.workspace.branch)).toContain("mine");
  });
});
