/**
 * `shard acp` in direct mode, driven by the official ACP SDK's client side as a real
 * subprocess, each session a real `shard agent` on the mock LLM: initialize, a session, a
 * streamed answer, a bash permission allowed and denied, an edit with its diff, cancel, and
 * loading an earlier session.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import { EVERYTHING } from "../mcp/support.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { AcpProcess, answerText, optionOf } from "./support/acp-process.ts";

// Real processes (the ACP agent and its runtimes) on a machine shared with other work.
setDefaultTimeout(90_000);

const llm = useMockLlmServer({ clearRequestsBeforeEach: true, clearQueueBeforeEach: true });
const processes: AcpProcess[] = [];
afterEach(async () => {
  await Promise.all(processes.splice(0).map((p) => p.close()));
});

function startAcp(home = mockHome(llm().url)): AcpProcess {
  const p = new AcpProcess(home, ["--model", "mock/chat"]);
  processes.push(p);
  return p;
}

/** A 1×1 PNG. */
const PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

async function newSession(p: AcpProcess, cwd = tempDir("cwd")) {
  await p.initialize();
  return p.agent.request("session/new", { cwd, mcpServers: [] });
}

describe("shard acp (direct)", () => {
  test("initialize answers protocol version 1 and the capabilities Shard has", async () => {
    const p = startAcp();
    const init = await p.initialize();
    expect(init.protocolVersion).toBe(1);
    expect(init.agentInfo?.name).toBe("shard");
    expect(init.agentCapabilities?.loadSession).toBe(true);
    expect(init.agentCapabilities?.promptCapabilities).toMatchObject({ image: true, embeddedContext: true });
    expect(init.agentCapabilities?.sessionCapabilities).toMatchObject({ resume: {}, close: {} });
  });

  test("session/new gives Shard's modes and its model picker", async () => {
    const p = startAcp();
    const session = await newSession(p);
    expect(session.sessionId).toMatch(/\S/);
    expect(session.modes?.currentModeId).toBe("build");
    expect(session.modes?.availableModes.map((m) => m.id)).toEqual(expect.arrayContaining(["build", "plan"]));
    const model = session.configOptions?.find((o) => o.category === "model");
    expect(model).toMatchObject({ type: "select", currentValue: "mock/chat" });
    await p.agent.request("session/set_mode", { sessionId: session.sessionId, modeId: "plan" });
    await p.waitForUpdate(
      session.sessionId,
      (u) => u.sessionUpdate === "current_mode_update" && u.currentModeId === "plan",
    );
  });

  test("a prompt streams the answer as message chunks and ends with end_turn", async () => {
    const p = startAcp();
    const { sessionId } = await newSession(p);
    llm().enqueue({ steps: [{ thinking: "let me see" }, { text: "one two three", chunks: 3 }] });
    const done = await p.agent.request("session/prompt", {
      sessionId,
      prompt: [
        { type: "text", text: "count" },
        { type: "resource_link", name: "notes.md", uri: "file:///work/notes.md" },
        { type: "image", data: PIXEL_PNG, mimeType: "image/png" },
      ],
    });
    expect(done.stopReason).toBe("end_turn");
    const sent = JSON.stringify(llm().requests[0]?.body.messages);
    expect(sent).toContain("count");
    expect(sent).toContain("[notes.md](file:///work/notes.md)");
    expect(sent).toContain(PIXEL_PNG);
    const updates = p.updatesOf(sessionId);
    const chunks = updates.filter((u) => u.sessionUpdate === "agent_message_chunk");
    expect(chunks.length).toBe(3);
    expect(answerText(updates)).toBe("one two three");
    expect(updates.some((u) => u.sessionUpdate === "agent_thought_chunk")).toBe(true);
  });

  test("a bash call asks the editor: allowed, it runs and its output is the tool call's content", async () => {
    const p = startAcp();
    const { sessionId } = await newSession(p);
    const asked: string[] = [];
    p.onPermission = (request) => {
      asked.push(request.toolCall.toolCallId);
      expect(request.options.map((o) => o.kind)).toEqual(
        expect.arrayContaining(["allow_once", "allow_always", "reject_once"]),
      );
      return { outcome: { outcome: "selected", optionId: optionOf(request, "allow_once") } };
    };
    llm().enqueue(
      { steps: [{ tool_call: { id: "c1", name: "bash", args: { command: "echo shard-acp-ok" } } }] },
      { steps: [{ text: "ran it" }] },
    );
    const done = await p.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "run it" }],
    });
    expect(done.stopReason).toBe("end_turn");
    const updates = p.updatesOf(sessionId);
    const call = updates.find((u) => u.sessionUpdate === "tool_call");
    expect(call).toMatchObject({ kind: "execute", title: "echo shard-acp-ok", status: "pending" });
    const callId = call?.sessionUpdate === "tool_call" ? call.toolCallId : "";
    expect(asked).toEqual([callId]);
    const finished = updates.find(
      (u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === callId && u.status === "completed",
    );
    expect(JSON.stringify(finished)).toContain("shard-acp-ok");
    expect(answerText(updates)).toBe("ran it");
  });

  test("a bash call denied in the editor does not run; the model is told and the turn goes on", async () => {
    const p = startAcp();
    const cwd = tempDir("cwd");
    const { sessionId } = await newSession(p, cwd);
    p.onPermission = (request) => ({
      outcome: { outcome: "selected", optionId: optionOf(request, "reject_once") },
    });
    llm().enqueue(
      { steps: [{ tool_call: { name: "bash", args: { command: "touch denied.txt" } } }] },
      { steps: [{ text: "ok, not running it" }] },
    );
    const done = await p.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "touch" }],
    });
    expect(done.stopReason).toBe("end_turn");
    const updates = p.updatesOf(sessionId);
    expect(updates.some((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed")).toBe(true);
    expect(answerText(updates)).toBe("ok, not running it");
    expect(() => readFileSync(join(cwd, "denied.txt"))).toThrow();
    expect(JSON.stringify(llm().requests[1]?.body.messages)).toMatch(/denied/i);
  });

  test("an edit shows its diff (path, old and new text) and changes the file", async () => {
    const p = startAcp();
    const cwd = tempDir("cwd");
    writeFileSync(join(cwd, "greet.txt"), "hello world\n");
    const { sessionId } = await newSession(p, cwd);
    let permissionContent = "";
    p.onPermission = (request) => {
      permissionContent = JSON.stringify(request.toolCall.content);
      return { outcome: { outcome: "selected", optionId: optionOf(request, "allow_once") } };
    };
    llm().enqueue(
      {
        steps: [
          {
            tool_call: {
              name: "edit",
              args: { path: "greet.txt", old_string: "world", new_string: "editor" },
            },
          },
        ],
      },
      { steps: [{ text: "edited" }] },
    );
    const done = await p.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "edit" }],
    });
    expect(done.stopReason).toBe("end_turn");
    expect(readFileSync(join(cwd, "greet.txt"), "utf8")).toBe("hello editor\n");
    const updates = p.updatesOf(sessionId);
    expect(updates.find((u) => u.sessionUpdate === "tool_call")).toMatchObject({
      kind: "edit",
      title: "Edit greet.txt",
      locations: [{ path: join(cwd, "greet.txt") }],
    });
    const finished = updates.find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    const diff = finished?.sessionUpdate === "tool_call_update" ? finished.content?.[0] : undefined;
    expect(diff).toEqual({ type: "diff", path: join(cwd, "greet.txt"), oldText: "world", newText: "editor" });
    expect(permissionContent).toContain('"type":"diff"');
  });

  test("session/cancel aborts the turn: the prompt answers cancelled and the session goes on", async () => {
    const p = startAcp();
    const { sessionId } = await newSession(p);
    llm().enqueue({ steps: [{ text: "starting" }, { hold: "stuck" }, { text: "never" }] });
    const prompt = p.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
    await llm().waitForHold("stuck");
    await p.agent.notify("session/cancel", { sessionId });
    expect((await prompt).stopReason).toBe("cancelled");
    llm().release("stuck");
    expect(answerText(p.updatesOf(sessionId))).not.toContain("never");
    llm().enqueue({ steps: [{ text: "back again" }] });
    const next = await p.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "again" }],
    });
    expect(next.stopReason).toBe("end_turn");
    expect(answerText(p.updatesOf(sessionId))).toContain("back again");
  });

  test("the editor's MCP servers (session/new mcpServers) give the model their tools, through the gate", async () => {
    const p = startAcp();
    await p.initialize();
    const { sessionId } = await p.agent.request("session/new", {
      cwd: tempDir("cwd"),
      mcpServers: [{ name: "everything", command: process.execPath, args: [EVERYTHING, "stdio"], env: [] }],
    });
    p.onPermission = (request) => ({
      outcome: { outcome: "selected", optionId: optionOf(request, "allow_once") },
    });
    llm().enqueue(
      { steps: [{ tool_call: { name: "mcp__everything__echo", args: { message: "hello-acp-mcp" } } }] },
      { steps: [{ text: "echoed" }] },
    );
    const done = await p.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "echo" }],
    });
    expect(done.stopReason).toBe("end_turn");
    const offered = JSON.stringify(llm().requests[0]?.body.tools);
    expect(offered).toContain("mcp__everything__echo");
    const updates = p.updatesOf(sessionId);
    expect(updates.find((u) => u.sessionUpdate === "tool_call")).toMatchObject({
      title: "echo (everything)",
    });
    const finished = updates.find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    expect(JSON.stringify(finished)).toContain("hello-acp-mcp");
  });

  test("session/load replays an earlier session and carries on in it", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const first = startAcp(home);
    const { sessionId } = await newSession(first, cwd);
    llm().enqueue({ steps: [{ text: "the first answer" }] });
    await first.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "remember kiwi" }],
    });
    await first.agent.request("session/close", { sessionId });
    await first.close();

    const second = startAcp(home);
    await second.initialize();
    const loaded = await second.agent.request("session/load", { sessionId, cwd, mcpServers: [] });
    expect(loaded.modes?.currentModeId).toBe("build");
    const replay = second.updatesOf(sessionId);
    expect(replay[0]).toMatchObject({
      sessionUpdate: "user_message_chunk",
      content: { type: "text", text: "remember kiwi" },
    });
    expect(answerText(replay)).toBe("the first answer");
    llm().enqueue({ steps: [{ text: "still here" }] });
    await second.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "and now?" }] });
    expect(JSON.stringify(llm().requests.at(-1)?.body.messages)).toContain("remember kiwi");
  });

  test("session/resume opens an earlier session without replaying it", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const first = startAcp(home);
    const { sessionId } = await newSession(first, cwd);
    llm().enqueue({ steps: [{ text: "noted" }] });
    await first.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "remember plum" }],
    });
    await first.close();

    const second = startAcp(home);
    await second.initialize();
    const resumed = await second.agent.request("session/resume", { sessionId, cwd, mcpServers: [] });
    expect(resumed.modes?.currentModeId).toBe("build");
    llm().enqueue({ steps: [{ text: "plum it was" }] });
    await second.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "what was it?" }],
    });
    const updates = second.updatesOf(sessionId);
    expect(updates.some((u) => u.sessionUpdate === "user_message_chunk")).toBe(false);
    expect(answerText(updates)).toBe("plum it was");
    expect(JSON.stringify(llm().requests.at(-1)?.body.messages)).toContain("remember plum");
  });

  test("session/cancel while a permission dialog is open dismisses it; the command never runs", async () => {
    const p = startAcp();
    const cwd = tempDir("cwd");
    const { sessionId } = await newSession(p, cwd);
    let asked!: () => void;
    const opened = new Promise<void>((resolve) => {
      asked = resolve;
    });
    let dismissed = false;
    p.onPermission = (_request, signal) => {
      asked();
      return new Promise((resolve) => {
        signal.addEventListener("abort", () => {
          dismissed = true;
          resolve({ outcome: { outcome: "cancelled" } });
        });
      });
    };
    llm().enqueue({ steps: [{ tool_call: { name: "bash", args: { command: "touch cancelled.txt" } } }] });
    const prompt = p.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "touch" }],
    });
    await opened;
    await p.agent.notify("session/cancel", { sessionId });
    expect((await prompt).stopReason).toBe("cancelled");
    expect(dismissed).toBe(true);
    expect(() => readFileSync(join(cwd, "cancelled.txt"))).toThrow();
    const call = p.updatesOf(sessionId).find((u) => u.sessionUpdate === "tool_call");
    const callId = call?.sessionUpdate === "tool_call" ? call.toolCallId : "";
    expect(
      p
        .updatesOf(sessionId)
        .some(
          (u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === callId && u.status === "failed",
        ),
    ).toBe(true);
  });
});
