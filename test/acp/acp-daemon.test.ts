/**
 * `shard acp --daemon`: the ACP session is a durable agent of a real daemon, and the editor
 * one interactive client among others. A second daemon client (as the web or a phone would)
 * answers the session's permission request first: the editor's dialog is dismissed, the turn
 * goes on, the agent is in `agent.list`, and it stays there when the editor goes away.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import type * as acp from "@agentclientprotocol/sdk";
import { DaemonHarness } from "../daemon/support/daemon-harness.ts";
import { EVERYTHING } from "../mcp/support.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { AcpProcess, answerText, optionOf } from "./support/acp-process.ts";

setDefaultTimeout(90_000);

const llm = useMockLlmServer({ clearRequestsBeforeEach: true, clearQueueBeforeEach: true });
let harness: DaemonHarness | undefined;
const processes: AcpProcess[] = [];
afterEach(async () => {
  await Promise.all(processes.splice(0).map((p) => p.close()));
  await harness?.stop();
  harness = undefined;
});

describe("shard acp --daemon", () => {
  test("a permission asked in the editor is answered from another daemon client: the dialog is dismissed and the turn goes on", async () => {
    harness = await DaemonHarness.start(llm().url);
    const editor = new AcpProcess(harness.home, ["--daemon", "--model", "mock/chat"]);
    processes.push(editor);
    await editor.initialize();
    const { sessionId } = await editor.agent.request("session/new", { cwd: harness.cwd, mcpServers: [] });

    const web = await harness.unixClient();
    const listed = await web.ok({ type: "agent.list" });
    const agent = listed.agents.find((a: { agent_id: string }) => a.agent_id === sessionId);
    expect(agent).toMatchObject({ agent_id: sessionId, cwd: harness.cwd });
    await web.ok({ type: "agent.attach", agent_id: sessionId });

    let askedInEditor: acp.RequestPermissionRequest | undefined;
    let dismissed = false;
    editor.onPermission = (request, signal) => {
      askedInEditor = request;
      // The person has not answered in the editor yet: the dialog stays until it is dismissed.
      return new Promise((resolve) => {
        signal.addEventListener("abort", () => {
          dismissed = true;
          resolve({ outcome: { outcome: "cancelled" } });
        });
      });
    };
    llm().enqueue(
      { steps: [{ tool_call: { name: "bash", args: { command: "echo answered-from-the-web" } } }] },
      { steps: [{ text: "done after the web said yes" }] },
    );
    const from = web.messages.length;
    const prompt = editor.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "run" }],
    });
    const asked = await web.waitAgent(sessionId, "permission_request", from);
    await web.ok({
      type: "permission_response",
      agent_id: sessionId,
      request_id: asked.request_id,
      decision: "allow",
    });

    expect((await prompt).stopReason).toBe("end_turn");
    expect(askedInEditor?.toolCall.title).toBe("echo answered-from-the-web");
    expect(dismissed).toBe(true);
    const updates = editor.updatesOf(sessionId);
    const done = updates.find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    expect(JSON.stringify(done)).toContain("answered-from-the-web");
    expect(answerText(updates)).toBe("done after the web said yes");
    const resolved = await web.waitAgent(sessionId, "permission_resolved", from);
    expect(resolved.decision).toBe("allow");

    // The editor goes away; the agent stays a durable agent of the daemon.
    await editor.close();
    const after = await web.ok({ type: "agent.list" });
    expect(after.agents.map((a: { agent_id: string }) => a.agent_id)).toContain(sessionId);
  });

  test("the editor answers in the daemon as one client; session/load attaches to the agent again and replays it", async () => {
    harness = await DaemonHarness.start(llm().url);
    const editor = new AcpProcess(harness.home, ["--daemon", "--model", "mock/chat"]);
    processes.push(editor);
    await editor.initialize();
    const { sessionId } = await editor.agent.request("session/new", { cwd: harness.cwd, mcpServers: [] });
    editor.onPermission = (request) => ({
      outcome: {
        outcome: "selected",
        optionId: request.options.find((o) => o.kind === "allow_once")?.optionId ?? "",
      },
    });
    llm().enqueue(
      { steps: [{ tool_call: { name: "bash", args: { command: "echo from-the-editor" } } }] },
      { steps: [{ text: "editor said yes" }] },
    );
    const done = await editor.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "go" }],
    });
    expect(done.stopReason).toBe("end_turn");
    await editor.close();

    const again = new AcpProcess(harness.home, ["--daemon"]);
    processes.push(again);
    await again.initialize();
    await again.agent.request("session/load", { sessionId, cwd: harness.cwd, mcpServers: [] });
    const replay = again.updatesOf(sessionId);
    expect(replay[0]).toMatchObject({ sessionUpdate: "user_message_chunk", content: { text: "go" } });
    expect(JSON.stringify(replay)).toContain("from-the-editor");
    expect(answerText(replay)).toBe("editor said yes");
  });

  test("the editor's MCP servers reach the daemon agent: the tool goes through the gate, and the agent keeps them after a daemon restart", async () => {
    harness = await DaemonHarness.start(llm().url);
    const editor = new AcpProcess(harness.home, ["--daemon", "--model", "mock/chat"]);
    processes.push(editor);
    const init = await editor.initialize();
    expect(init.agentCapabilities?.mcpCapabilities).toMatchObject({ http: true, sse: false });
    const { sessionId } = await editor.agent.request("session/new", {
      cwd: harness.cwd,
      mcpServers: [{ name: "everything", command: process.execPath, args: [EVERYTHING, "stdio"], env: [] }],
    });
    const asked: string[] = [];
    editor.onPermission = (request) => {
      asked.push(request.toolCall.title ?? "");
      return { outcome: { outcome: "selected", optionId: optionOf(request, "allow_once") } };
    };
    llm().enqueue(
      { steps: [{ tool_call: { name: "mcp__everything__echo", args: { message: "hello-daemon-mcp" } } }] },
      { steps: [{ text: "echoed in the daemon" }] },
    );
    const done = await editor.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "echo" }],
    });
    expect(done.stopReason).toBe("end_turn");
    expect(JSON.stringify(llm().requests[0]?.body.tools)).toContain("mcp__everything__echo");
    expect(asked).toEqual(["echo (everything)"]);
    const finished = editor
      .updatesOf(sessionId)
      .find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    expect(JSON.stringify(finished)).toContain("hello-daemon-mcp");
    await editor.close();

    // A new daemon on the same home: the agent's runtime starts again with the same servers,
    // though the editor that loads it names none.
    const home = harness.home;
    await harness.stop();
    harness = await DaemonHarness.start(llm().url, { home });
    const again = new AcpProcess(home, ["--daemon"]);
    processes.push(again);
    await again.initialize();
    await again.agent.request("session/load", { sessionId, cwd: harness.cwd, mcpServers: [] });
    again.onPermission = editor.onPermission;
    llm().enqueue(
      { steps: [{ tool_call: { name: "mcp__everything__echo", args: { message: "after-the-restart" } } }] },
      { steps: [{ text: "still there" }] },
    );
    const requestsBefore = llm().requests.length;
    const next = await again.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "echo again" }],
    });
    expect(next.stopReason).toBe("end_turn");
    expect(JSON.stringify(llm().requests[requestsBefore]?.body.tools)).toContain("mcp__everything__echo");
    expect(asked).toEqual(["echo (everything)", "echo (everything)"]);
    const echoed = again
      .updatesOf(sessionId)
      .filter((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    expect(JSON.stringify(echoed)).toContain("after-the-restart");
  });
});
