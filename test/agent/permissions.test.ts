/**
 * Permissions through a real `shard agent` process (docs/architecture.md §6.4,
 * docs/protocol.md §5.3): the mock model emits tool calls and the test answers the permission and
 * UI requests as a client would.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import type { MockReply } from "../support/mock-llm/types.ts";
import { type AgentProcess, type Msg, mockHome, tempDir, writeFiles } from "./support/agent-process.ts";
import { useAgentHarness } from "./support/harness.ts";

setDefaultTimeout(60_000);

const { llm, start, spawn } = useAgentHarness();

function toolCall(name: string, args: Record<string, unknown>): MockReply {
  return { steps: [{ tool_call: { name, args } }] };
}

/** Queues "call this tool, then say done" and sends the prompt; returns the index before it. */
async function startToolTurn(agent: AgentProcess, name: string, args: Record<string, unknown>) {
  llm().enqueue(toolCall(name, args), { steps: [{ text: "done" }] });
  const from = agent.events.length;
  const requestsBefore = llm().requests.length;
  const res = await agent.request({ type: "prompt", message: `please run ${name}` });
  expect(res.success).toBe(true);
  return { from, requestsBefore };
}

/** The request body the model saw after the tool ran (the second call of the turn). */
function followUpBody(requestsBefore: number): string {
  const req = llm().requests[requestsBefore + 1];
  expect(req).toBeDefined();
  return JSON.stringify(req?.body);
}

function lastStatus(agent: AgentProcess): string | undefined {
  return agent.events.findLast((m) => m.type === "status")?.status;
}

describe("permission requests", () => {
  test("bash asks with prompt, options, details and structured choices; an unknown choice is refused and leaves it open; a late answer is discarded", async () => {
    const agent = await spawn();
    const { from } = await startToolTurn(agent, "bash", { command: "echo hello-perm" });
    const req = await agent.waitType("permission_request", from);
    expect(req.tool_name).toBe("bash");
    expect(req.input).toEqual({ command: "echo hello-perm" });
    expect(req.prompt).toContain("echo hello-perm");
    expect(req.options).toEqual(["allow", "allow_always", "deny"]);
    expect(req.details).toContainEqual({ label: "Command", value: "echo hello-perm", format: "command" });
    expect(req.details).toContainEqual({ label: "Working directory", value: agent.cwd, format: "path" });
    expect(req.choices.map((c: Msg) => c.id)).toEqual([
      "allow_once",
      "allow_always_exact",
      "allow_always_signature",
      "deny",
    ]);
    expect(req.choices.map((c: Msg) => c.intent)).toEqual(["allow", "persist", "persist", "deny"]);
    for (const c of req.choices) expect(typeof c.label).toBe("string");
    await agent.waitStatus("waiting_for_permission", from);
    // No tool_call before the answer: the gate runs first.
    expect(agent.typesSince(from)).not.toContain("tool_call");

    // An unknown choice id is invalid, as through the daemon, and the request stays open.
    const bogus = await agent.request({
      type: "permission_response",
      request_id: req.request_id,
      choice_id: "allow_everything_forever",
    });
    expect(bogus.success).toBe(false);
    expect(bogus.error.code).toBe("INVALID_REQUEST");
    expect(bogus.error.message).toContain("is not a choice of request");
    await agent.barrier();
    expect(agent.typesSince(from)).not.toContain("permission_resolved");
    expect(lastStatus(agent)).toBe("waiting_for_permission");

    // A valid answer wins.
    const okRes = await agent.request({
      type: "permission_response",
      request_id: req.request_id,
      choice_id: "allow_once",
    });
    expect(okRes.success).toBe(true);
    const resolved = await agent.waitType("permission_resolved", from);
    expect(resolved.request_id).toBe(req.request_id);
    expect(resolved.choice_id).toBe("allow_once");
    const result = await agent.waitType("tool_result", from);
    expect(result.is_error).toBe(false);
    expect(JSON.stringify(result.content)).toContain("hello-perm");
    await agent.waitTurnEnd(from);

    // A second (late) answer: still a success response, silently discarded.
    const late = await agent.request({
      type: "permission_response",
      request_id: req.request_id,
      decision: "deny",
    });
    expect(late.success).toBe(true);
    await agent.barrier();
    expect(agent.events.slice(from).filter((m) => m.type === "permission_resolved")).toHaveLength(1);
  });

  test("legacy decision form works and the status returns to streaming", async () => {
    const agent = start();
    const { from } = await startToolTurn(agent, "write", { path: "out.txt", content: "written" });
    const req = await agent.waitType("permission_request", from);
    expect(req.tool_name).toBe("write");
    expect(req.choices.map((c: Msg) => c.id)).toEqual(["allow_once", "allow_always_exact", "deny"]);
    await agent.waitStatus("waiting_for_permission", from);
    agent.send({ type: "permission_response", request_id: req.request_id, decision: "allow" });
    const resolved = await agent.waitType("permission_resolved", from);
    expect(resolved.decision).toBe("allow");
    const events = await agent.waitTurnEnd(from);
    const statuses = events.filter((m) => m.type === "status").map((m) => m.status);
    expect(statuses.slice(statuses.indexOf("waiting_for_permission"))).toEqual([
      "waiting_for_permission",
      "streaming",
      "idle",
    ]);
    expect(readFileSync(join(agent.cwd, "out.txt"), "utf8")).toBe("written");
  });

  test("deny gives an error tool_result with the reason, and the model is told", async () => {
    const agent = start();
    const { from, requestsBefore } = await startToolTurn(agent, "bash", { command: "touch denied.txt" });
    const req = await agent.waitType("permission_request", from);
    agent.send({
      type: "permission_response",
      request_id: req.request_id,
      choice_id: "deny",
      reason: "use the existing file instead",
    });
    const resolved = await agent.waitType("permission_resolved", from);
    expect(resolved.choice_id).toBe("deny");
    expect(resolved.source).toBe("stdio");
    const result = await agent.waitType("tool_result", from);
    expect(result.is_error).toBe(true);
    expect(result.content.message).toContain("denied");
    expect(result.content.message).toContain("use the existing file instead");
    const events = await agent.waitTurnEnd(from);
    expect(events.map((m) => m.type)).not.toContain("tool_call");
    expect(existsSync(join(agent.cwd, "denied.txt"))).toBe(false);
    expect(followUpBody(requestsBefore)).toContain(result.content.message);
  });

  test("read-only tools inside cwd run without asking", async () => {
    const agent = start();
    writeFiles(agent.cwd, { "notes.txt": "inside-cwd-content" });
    const { from } = await startToolTurn(agent, "read", { path: "notes.txt" });
    const events = await agent.waitTurnEnd(from);
    expect(events.map((m) => m.type)).not.toContain("permission_request");
    const call = events.find((m) => m.type === "tool_call");
    expect(call?.read_only).toBe(true);
    const result = events.find((m) => m.type === "tool_result");
    expect(result?.is_error).toBe(false);
    expect(JSON.stringify(result?.content)).toContain("inside-cwd-content");
  });

  test("a read outside cwd asks, with the resolved path in the details", async () => {
    const agent = start();
    const outside = tempDir("outside");
    writeFiles(outside, { "secret.txt": "outside-content" });
    const target = join(outside, "secret.txt");
    const { from } = await startToolTurn(agent, "read", { path: target });
    const req = await agent.waitType("permission_request", from);
    expect(req.tool_name).toBe("read");
    expect(req.prompt).toContain(target);
    expect(req.details).toContainEqual({
      label: "Path (outside the working directory)",
      value: target,
      format: "path",
    });
    agent.send({ type: "permission_response", request_id: req.request_id, choice_id: "allow_once" });
    const result = await agent.waitType("tool_result", from);
    expect(JSON.stringify(result.content)).toContain("outside-content");
    await agent.waitTurnEnd(from);
  });

  test("a symlink inside cwd pointing outside asks for read, showing the resolved target", async () => {
    const agent = start();
    const outside = tempDir("outside");
    writeFiles(outside, { "target.txt": "via-symlink" });
    const target = join(outside, "target.txt");
    symlinkSync(target, join(agent.cwd, "link.txt"));
    const { from } = await startToolTurn(agent, "read", { path: "link.txt" });
    const req = await agent.waitType("permission_request", from);
    expect(req.details).toContainEqual({
      label: "Path (outside the working directory)",
      value: target,
      format: "path",
    });
    expect(req.details).toContainEqual({ label: "Requested as", value: "link.txt", format: "path" });
    agent.send({ type: "permission_response", request_id: req.request_id, choice_id: "deny" });
    const result = await agent.waitType("tool_result", from);
    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result.content)).not.toContain("via-symlink");
    await agent.waitTurnEnd(from);
  });

  test("plan mode denies write, edit and bash without asking and tells the model why", async () => {
    const agent = start();
    writeFiles(agent.cwd, { "a.txt": "original" });
    const mode = await agent.request({ type: "set_mode", mode: "plan" });
    expect(mode.success).toBe(true);
    const calls: [string, Record<string, unknown>][] = [
      ["write", { path: "a.txt", content: "changed" }],
      ["edit", { path: "a.txt", old_string: "original", new_string: "changed" }],
      ["bash", { command: "echo changed > a.txt" }],
    ];
    for (const [name, args] of calls) {
      const { from, requestsBefore } = await startToolTurn(agent, name, args);
      const events = await agent.waitTurnEnd(from);
      expect(events.map((m) => m.type)).not.toContain("permission_request");
      expect(events.map((m) => m.type)).not.toContain("tool_call");
      const result = events.find((m) => m.type === "tool_result");
      expect(result?.is_error).toBe(true);
      expect(result?.content.message).toContain("plan mode");
      expect(result?.content.message).toContain(name);
      expect(followUpBody(requestsBefore)).toContain("plan mode");
    }
    expect(readFileSync(join(agent.cwd, "a.txt"), "utf8")).toBe("original");
  });
});

describe("persisted grants survive a restart", () => {
  /** Runs one tool turn; answers a permission request with `answer` if one comes. */
  async function runTool(
    agent: AgentProcess,
    name: string,
    args: Record<string, unknown>,
    answer: Record<string, string> = { choice_id: "deny" },
  ): Promise<{ asked: boolean; result: Msg }> {
    const { from } = await startToolTurn(agent, name, args);
    const first = await agent.waitFor(
      (m) => m.type === "permission_request" || m.type === "tool_result",
      from,
    );
    let asked = false;
    if (first.type === "permission_request") {
      asked = true;
      agent.send({ type: "permission_response", request_id: first.request_id, ...answer });
    }
    const result = await agent.waitType("tool_result", from);
    await agent.waitTurnEnd(from);
    return { asked, result };
  }

  test("legacy allow_always is exact: the same write runs without asking after restart, another asks", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const first = start({ home, cwd });
    const granted = await runTool(
      first,
      "write",
      { path: "g.txt", content: "v1" },
      { decision: "allow_always" },
    );
    expect(granted.asked).toBe(true);
    expect(granted.result.is_error).toBe(false);
    expect(await first.close()).toBe(0);

    const second = start({ home, cwd });
    const same = await runTool(second, "write", { path: "g.txt", content: "v1" });
    expect(same.asked).toBe(false);
    expect(same.result.is_error).toBe(false);
    const other = await runTool(second, "write", { path: "g.txt", content: "v2" });
    expect(other.asked).toBe(true);
    expect(readFileSync(join(cwd, "g.txt"), "utf8")).toBe("v1");
  });

  test("allow_always_exact on a bash command: the exact command runs after restart, another asks", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const first = start({ home, cwd });
    const granted = await runTool(
      first,
      "bash",
      { command: "echo exact-1" },
      { choice_id: "allow_always_exact" },
    );
    expect(granted.asked).toBe(true);
    await first.close();

    const second = start({ home, cwd });
    const same = await runTool(second, "bash", { command: "echo exact-1" });
    expect(same.asked).toBe(false);
    expect(JSON.stringify(same.result.content)).toContain("exact-1");
    expect((await runTool(second, "bash", { command: "echo exact-2" })).asked).toBe(true);
  });

  test("allow_always_signature on `git status -s` covers the same subcommand and flag set only", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const init = Bun.spawnSync(["git", "init", "-q", cwd]);
    expect(init.exitCode).toBe(0);
    writeFiles(cwd, { "tracked.txt": "x" });

    const first = start({ home, cwd });
    const { from } = await startToolTurn(first, "bash", { command: "git status -s" });
    const req = await first.waitType("permission_request", from);
    const signature = req.choices.find((c: Msg) => c.id === "allow_always_signature");
    expect(signature.label).toContain("`git status` with the flag -s");
    first.send({
      type: "permission_response",
      request_id: req.request_id,
      choice_id: "allow_always_signature",
    });
    const granted = await first.waitType("tool_result", from);
    expect(granted.is_error).toBe(false);
    expect(JSON.stringify(granted.content)).toContain("tracked.txt");
    await first.waitTurnEnd(from);
    await first.close();

    const second = start({ home, cwd });
    // Same subcommand, same flag set {-s}; other positional arguments are not compared.
    const withPath = await runTool(second, "bash", { command: "git status -s tracked.txt" });
    expect(withPath.asked).toBe(false);
    const again = await runTool(second, "bash", { command: "git status -s" });
    expect(again.asked).toBe(false);
    expect(JSON.stringify(again.result.content)).toContain("tracked.txt");
    // Another flag set, or a chained command, asks.
    expect((await runTool(second, "bash", { command: "git status -s -b" })).asked).toBe(true);
    expect((await runTool(second, "bash", { command: "git status" })).asked).toBe(true);
    expect((await runTool(second, "bash", { command: "git log -s" })).asked).toBe(true);
    const chained = await runTool(second, "bash", { command: "git status -s; rm tracked.txt" });
    expect(chained.asked).toBe(true);
    expect(existsSync(join(cwd, "tracked.txt"))).toBe(true);
  });
});

describe("ask tool", () => {
  test("ui_request select → ui_response → ui_resolved; the answer reaches the model", async () => {
    const agent = start();
    const { from, requestsBefore } = await startToolTurn(agent, "ask", {
      question: "Which color?",
      options: ["red", "blue"],
    });
    const req = await agent.waitType("ui_request", from);
    expect(req.kind).toBe("select");
    expect(req.title).toBe("Which color?");
    expect(req.options).toEqual(["red", "blue"]);
    await agent.waitStatus("waiting_for_ui", from);
    const res = await agent.request({ type: "ui_response", request_id: req.request_id, value: "blue" });
    expect(res.success).toBe(true);
    const resolved = await agent.waitType("ui_resolved", from);
    expect(resolved).toMatchObject({ request_id: req.request_id, value: "blue" });
    const result = await agent.waitType("tool_result", from);
    expect(result.is_error).toBe(false);
    expect(result.content).toEqual({ kind: "text", text: "blue" });
    const events = await agent.waitTurnEnd(from);
    const statuses = events.filter((m) => m.type === "status").map((m) => m.status);
    expect(statuses).toEqual(["streaming", "waiting_for_ui", "streaming", "idle"]);
    expect(followUpBody(requestsBefore)).toContain("blue");
  });
});
