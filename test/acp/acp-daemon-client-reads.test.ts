/**
 * The editor's unsaved buffers with `shard acp --daemon` (protocol-additions §26): the bridge
 * attaches with `serves_reads`, the broker routes the agent's `client_read_request` to it, and
 * the editor's text is what the model's `read` gets. Another client of the daemon cannot answer
 * the read (its answer is refused and the editor's wins), and a browser cannot become the reader.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DaemonHarness } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { AcpProcess } from "./support/acp-process.ts";

setDefaultTimeout(90_000);

const llm = useMockLlmServer({ clearRequestsBeforeEach: true, clearQueueBeforeEach: true });
let harness: DaemonHarness | undefined;
const processes: AcpProcess[] = [];
afterEach(async () => {
  await Promise.all(processes.splice(0).map((p) => p.close()));
  await harness?.stop();
  harness = undefined;
});

/** What the model was sent as the result of its last tool call, in request `index`. */
function toolResultSent(index: number): string {
  const messages: { role: string; content: unknown }[] = llm().requests[index]?.body.messages ?? [];
  const last = messages.filter((m) => m.role === "tool").at(-1);
  return JSON.stringify(last?.content ?? null);
}

describe("shard acp --daemon: the editor's unsaved buffers", () => {
  test("the model reads the editor's buffer; another client's answer to the read is refused", async () => {
    harness = await DaemonHarness.start(llm().url);
    const cwd = realpathSync(harness.cwd);
    const notes = join(cwd, "notes.txt");
    writeFileSync(notes, "saved-on-disk\n");
    const editor = new AcpProcess(harness.home, ["--daemon", "--model", "mock/chat"]);
    processes.push(editor);
    editor.buffers.set(notes, "unsaved-in-the-editor\n");
    await editor.initialize({ readTextFile: true });
    const { sessionId } = await editor.agent.request("session/new", { cwd, mcpServers: [] });

    // A browser cannot make itself the reader of the agent.
    const browser = await harness.wsClient();
    const refusedAttach = await browser.request({
      type: "agent.attach",
      agent_id: sessionId,
      serves_reads: true,
    });
    expect(refusedAttach.success).toBe(false);
    expect(refusedAttach.error.code).toBe("PERMISSION_DENIED");
    // A second local client attached as an ordinary interactive one (as the CLI's attach is).
    const other = await harness.unixClient();
    await other.ok({ type: "agent.attach", agent_id: sessionId });

    // The editor holds its answer until the other client's answer has been refused.
    let editorAsked: () => void = () => {};
    const asked = new Promise<void>((resolve) => {
      editorAsked = resolve;
    });
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    editor.beforeRead = () => {
      editorAsked();
      return released;
    };
    llm().enqueue(
      { steps: [{ tool_call: { name: "read", args: { path: "notes.txt" } } }] },
      { steps: [{ text: "read it" }] },
    );
    const from = other.messages.length;
    const prompt = editor.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "read notes" }],
    });
    const request = await other.waitAgent(sessionId, "client_read_request", from);
    expect(request.path).toBe(notes);
    await asked;
    const forged = await other.request({
      type: "client_read_response",
      agent_id: sessionId,
      request_id: request.request_id,
      content: "forged-by-another-client\n",
    });
    expect(forged.success).toBe(false);
    expect(forged.error.code).toBe("PERMISSION_DENIED");
    release();

    expect((await prompt).stopReason).toBe("end_turn");
    expect(editor.readsAsked).toEqual([notes]);
    expect(toolResultSent(1)).toContain("unsaved-in-the-editor");
    expect(toolResultSent(1)).not.toContain("forged-by-another-client");
    expect(toolResultSent(1)).not.toContain("saved-on-disk");
  });

  test("without a reader the daemon agent reads the disk", async () => {
    harness = await DaemonHarness.start(llm().url);
    const cwd = realpathSync(harness.cwd);
    writeFileSync(join(cwd, "notes.txt"), "saved-on-disk\n");
    const client = await harness.unixClient();
    const agentId = await harness.createAgent(client);
    await client.ok({ type: "agent.attach", agent_id: agentId });
    const observer = await client.request({
      type: "agent.attach",
      agent_id: agentId,
      role: "observer",
      serves_reads: true,
    });
    expect(observer.error.code).toBe("INVALID_REQUEST");
    const from = client.messages.length;
    llm().enqueue(
      { steps: [{ tool_call: { name: "read", args: { path: "notes.txt" } } }] },
      { steps: [{ text: "read it" }] },
    );
    await client.ok({ type: "prompt", agent_id: agentId, message: "read notes" });
    const request = await client.waitAgent(agentId, "client_read_request", from);
    await client.waitAgent(agentId, "turn_end", from);
    expect(toolResultSent(1)).toContain("saved-on-disk");
    // The broker answered it: a late answer from this (non-reader) client is refused.
    const late = await client.request({
      type: "client_read_response",
      agent_id: agentId,
      request_id: request.request_id,
      content: "too late",
    });
    expect(late.error.code).toBe("PERMISSION_DENIED");
  });
});
