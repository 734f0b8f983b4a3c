/**
 * The editor's unsaved buffers (`fs/read_text_file`) in direct mode, with the official ACP SDK's
 * client side driving `shard acp`: a client that offers the capability is asked for the file
 * the `read` tool reads, and its text is what the model gets; a path outside the agent's cwd
 * (named directly, or through a symlink inside it) is read from disk and never named to the
 * editor, even when the person allows the read.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { AcpProcess, optionOf } from "./support/acp-process.ts";

setDefaultTimeout(90_000);

const llm = useMockLlmServer({ clearRequestsBeforeEach: true, clearQueueBeforeEach: true });
const processes: AcpProcess[] = [];
afterEach(async () => {
  await Promise.all(processes.splice(0).map((p) => p.close()));
});

function startAcp(): AcpProcess {
  const p = new AcpProcess(mockHome(llm().url), ["--model", "mock/chat"]);
  processes.push(p);
  return p;
}

/** What the model was sent as the result of its last tool call, in request `index`. */
function toolResultSent(index: number): string {
  const messages: { role: string; content: unknown }[] = llm().requests[index]?.body.messages ?? [];
  const last = messages.filter((m) => m.role === "tool").at(-1);
  return JSON.stringify(last?.content ?? null);
}

const read = (path: string) => ({ steps: [{ tool_call: { name: "read", args: { path } } }] });

describe("shard acp: the editor's unsaved buffers", () => {
  test("read asks the editor first: its unsaved text, not the disk's, is what the model sees", async () => {
    const cwd = realpathSync(tempDir("cwd"));
    writeFileSync(join(cwd, "notes.txt"), "saved-on-disk\n");
    const p = startAcp();
    p.buffers.set(join(cwd, "notes.txt"), "unsaved-in-the-editor\n");
    await p.initialize({ readTextFile: true });
    const { sessionId } = await p.agent.request("session/new", { cwd, mcpServers: [] });
    llm().enqueue(read("notes.txt"), { steps: [{ text: "read it" }] });
    const done = await p.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "read notes" }],
    });
    expect(done.stopReason).toBe("end_turn");
    expect(p.readsAsked).toEqual([join(cwd, "notes.txt")]);
    expect(toolResultSent(1)).toContain("unsaved-in-the-editor");
    expect(toolResultSent(1)).not.toContain("saved-on-disk");
    const finished = p
      .updatesOf(sessionId)
      .find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    expect(JSON.stringify(finished)).toContain("unsaved-in-the-editor");
  });

  test("without the capability, or without a buffer, the disk is read", async () => {
    const cwd = realpathSync(tempDir("cwd"));
    writeFileSync(join(cwd, "notes.txt"), "saved-on-disk\n");
    writeFileSync(join(cwd, "other.txt"), "other-on-disk\n");
    const plain = startAcp();
    plain.buffers.set(join(cwd, "notes.txt"), "unsaved-in-the-editor\n");
    await plain.initialize();
    const first = await plain.agent.request("session/new", { cwd, mcpServers: [] });
    llm().enqueue(read("notes.txt"), { steps: [{ text: "ok" }] });
    await plain.agent.request("session/prompt", {
      sessionId: first.sessionId,
      prompt: [{ type: "text", text: "read" }],
    });
    expect(plain.readsAsked).toEqual([]);
    expect(toolResultSent(1)).toContain("saved-on-disk");

    const editor = startAcp();
    await editor.initialize({ readTextFile: true });
    const second = await editor.agent.request("session/new", { cwd, mcpServers: [] });
    llm().enqueue(read("other.txt"), { steps: [{ text: "ok" }] });
    await editor.agent.request("session/prompt", {
      sessionId: second.sessionId,
      prompt: [{ type: "text", text: "read" }],
    });
    // Asked, answered "no such buffer": the disk's text.
    expect(editor.readsAsked).toEqual([join(cwd, "other.txt")]);
    expect(toolResultSent(3)).toContain("other-on-disk");
  });

  test("a path outside the cwd is never named to the editor, even when the read is allowed", async () => {
    const cwd = realpathSync(tempDir("cwd"));
    const outside = realpathSync(tempDir("outside"));
    const secret = join(outside, "secret.txt");
    writeFileSync(secret, "outside-on-disk\n");
    mkdirSync(join(cwd, "sub"));
    symlinkSync(secret, join(cwd, "sub", "link.txt"));
    writeFileSync(join(cwd, "inside.txt"), "inside-on-disk\n");
    const p = startAcp();
    // An editor that would answer for any path it is asked about.
    p.buffers.set(secret, "editor-text-of-outside\n");
    p.buffers.set(join(cwd, "sub", "link.txt"), "editor-text-of-link\n");
    p.buffers.set(join(cwd, "inside.txt"), "editor-text-of-inside\n");
    await p.initialize({ readTextFile: true });
    const { sessionId } = await p.agent.request("session/new", { cwd, mcpServers: [] });
    const asked: string[] = [];
    p.onPermission = (request) => {
      asked.push(request.toolCall.title ?? "");
      return { outcome: { outcome: "selected", optionId: optionOf(request, "allow_once") } };
    };
    llm().enqueue(read(secret), read("sub/link.txt"), read("inside.txt"), { steps: [{ text: "done" }] });
    const done = await p.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "read them" }],
    });
    expect(done.stopReason).toBe("end_turn");
    // The person allowed the reads outside the cwd; the editor was still not asked for them.
    expect(asked.length).toBeGreaterThan(0);
    expect(toolResultSent(1)).toContain("outside-on-disk");
    expect(toolResultSent(2)).toContain("outside-on-disk");
    expect(toolResultSent(3)).toContain("editor-text-of-inside");
    expect(p.readsAsked).toEqual([join(cwd, "inside.txt")]);
  });
});
