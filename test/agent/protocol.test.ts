/**
 * The per-agent protocol against a real `shard agent` process and the mock LLM server:
 * hello/sync, the event order of plain and tool turns in both wire formats (docs/protocol.md §6),
 * delta-only streaming, images, U+2028/U+2029 handling and bad input.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentProcess, Msg } from "./support/agent-process.ts";
import { assistantMessages, blockText, shape } from "./support/events.ts";
import { useAgentHarness } from "./support/harness.ts";

setDefaultTimeout(60_000);

const { llm, start, spawn } = useAgentHarness();

/** Every emitted event (not responses) carries a seq; after hello/sync it strictly increases. */
function expectIncreasingSeq(events: Msg[]): void {
  let last = -1;
  for (const e of events) {
    if (e.type === "response") {
      expect(e.seq).toBeUndefined();
      continue;
    }
    expect(typeof e.seq).toBe("number");
    if (e.type === "hello" || e.type === "sync") {
      expect(e.seq).toBeGreaterThanOrEqual(last);
    } else {
      expect(e.seq).toBeGreaterThan(last);
    }
    last = e.seq;
  }
}

describe("connection start", () => {
  test("hello then sync, with the capabilities of an OpenAI model", async () => {
    const agent = start();
    const sync = await agent.waitType("sync");
    const [hello] = agent.events;
    expect(hello?.type).toBe("hello");
    expect(agent.events[1]).toBe(sync);
    expect(hello?.protocol_version).toBe("0.1.0");
    expect(typeof hello?.server_version).toBe("string");
    for (const cap of ["streaming-deltas", "mode-catalog", "mode-switch", "model-catalog", "model-switch"])
      expect(hello?.capabilities).toContain(cap);
    expect(hello?.capabilities).not.toContain("reasoning-catalog");
    expect(hello?.agent_id).toBeUndefined();

    expect(sync.status).toBe("idle");
    expect(sync.mode).toBe("build");
    expect(sync.live_window.messages).toEqual([]);
    expect(sync.pending_requests).toEqual([]);
    expect(sync.capabilities).toEqual(hello?.capabilities);
  });

  test("a model with reasoning levels adds reasoning-catalog and reasoning-switch", async () => {
    const agent = start({ model: "mockant/claude" });
    const sync = await agent.waitType("sync");
    const hello = agent.events[0]!;
    expect(hello.capabilities).toContain("reasoning-catalog");
    expect(hello.capabilities).toContain("reasoning-switch");
    expect(sync.capabilities).toContain("reasoning-catalog");
    expect(sync.capabilities).toContain("reasoning-switch");
  });
});

describe.each([
  ["OpenAI chat completions", "mock/chat", "/v1/chat/completions"],
  ["Anthropic messages", "mockant/claude", "/v1/messages"],
  ["OpenAI responses", "mockresp/resp", "/v1/responses"],
] as const)("turns in the %s format", (_name, model, path) => {
  test("plain turn: event order, usage, delta-only text", async () => {
    const agent = await spawn({ model });
    const base = llm().requests.length;
    const reply = "The quick brown fox jumps over the lazy dog, twice.";
    const thinking = model === "mockant/claude" ? "Let me consider the fox." : undefined;
    llm().enqueue({
      steps: [...(thinking ? [{ thinking, chunks: 3 }] : []), { text: reply, chunks: 6 }],
      usage: { input: 21, output: 8 },
    });
    const from = agent.events.length;
    const events = await agent.prompt("tell me about the fox");
    expect(llm().requests[base]?.path).toBe(path);

    expect(shape(events)).toEqual([
      "response",
      "turn_start",
      "message_complete", // the user message
      "message_delta",
      "message_complete",
      "usage",
      "turn_end",
    ]);
    expectIncreasingSeq(agent.events.slice(from));

    const statuses = events.filter((e) => e.type === "status").map((e) => e.status);
    expect(statuses).toEqual(["streaming", "idle"]);
    expect(events.at(-1)).toMatchObject({ type: "status", status: "idle" });
    const firstDelta = events.findIndex((e) => e.type === "message_delta");
    expect(events.findIndex((e) => e.type === "status" && e.status === "streaming")).toBeLessThan(firstDelta);

    const user = events.find((e) => e.type === "message_complete")!;
    expect(user.message.role).toBe("user");
    expect(blockText(user.message)).toBe("tell me about the fox");

    const [assistant] = assistantMessages(events);
    expect(blockText(assistant!)).toBe(reply);
    const textDeltas = events.filter((e) => e.type === "message_delta" && e.kind === "text");
    expect(textDeltas.length).toBeGreaterThan(1);
    expect(textDeltas.map((e) => e.text_delta).join("")).toBe(reply);
    // Delta-only: after the first chunk, no delta repeats the text so far.
    let soFar = "";
    for (const d of textDeltas) {
      if (soFar) expect((d.text_delta as string).startsWith(soFar)).toBe(false);
      soFar += d.text_delta;
    }
    for (const d of events.filter((e) => e.type === "message_delta"))
      expect(d.message_id).toBe(assistant!.id);

    if (thinking) {
      const thinkingDeltas = events.filter((e) => e.type === "message_delta" && e.kind === "thinking");
      expect(thinkingDeltas.length).toBe(3);
      expect(thinkingDeltas.map((e) => e.text_delta).join("")).toBe(thinking);
      expect(blockText(assistant!, "thinking")).toBe(thinking);
      expect(assistant!.content.map((b: Msg) => b.type)).toEqual(["thinking", "text"]);
      expect(thinkingDeltas[0]!.block_index).toBe(0);
      expect(textDeltas[0]!.block_index).toBe(1);
    }

    const usage = events.find((e) => e.type === "usage")!;
    expect(usage).toMatchObject({ input: 21, output: 8 });
    const turnStart = events.find((e) => e.type === "turn_start")!;
    const turnEnd = events.find((e) => e.type === "turn_end")!;
    expect(turnEnd.turn_id).toBe(turnStart.turn_id);
    expect(turnEnd.usage).toMatchObject({ input: 21, output: 8 });
  });

  test("tool turn: args_delta fragments, tool_call/tool_result, usage after every provider call", async () => {
    const agent = start({ model });
    writeFileSync(join(agent.cwd, "config.json"), '{"answer": 42}\n');
    await agent.waitType("sync");
    const base = llm().requests.length;
    const args = { path: "config.json", offset: 1, limit: 50 };
    llm().enqueue(
      {
        steps: [{ text: "Reading config...", chunks: 3 }, { tool_call: { name: "read", args, chunks: 5 } }],
        usage: { input: 30, output: 10 },
      },
      { steps: [{ text: "The config says 42.", chunks: 4 }], usage: { input: 50, output: 6 } },
    );
    const from = agent.events.length;
    const events = await agent.prompt("read the config");
    expect(llm().requests.length - base).toBe(2);
    expect(shape(events)).toEqual([
      "response",
      "turn_start",
      "message_complete",
      "message_delta",
      "message_complete",
      "usage",
      "tool_call",
      "tool_result",
      "message_delta",
      "message_complete",
      "usage",
      "turn_end",
    ]);
    expectIncreasingSeq(agent.events.slice(from));

    const [first, second] = assistantMessages(events);
    const call = (first!.content as Msg[]).find((b) => b.type === "tool_call")!;
    expect(call.name).toBe("read");
    expect(call.args).toEqual(args);

    const toolDeltas = events.filter((e) => e.type === "message_delta" && e.kind === "tool_call");
    expect(toolDeltas[0]).toMatchObject({ tool_call_id: call.id, name: "read" });
    const fragments = toolDeltas.filter((d) => d.args_delta !== undefined).map((d) => d.args_delta as string);
    expect(fragments.length).toBeGreaterThan(1);
    expect(JSON.parse(fragments.join(""))).toEqual(args);
    for (const f of fragments) expect(f.length).toBeLessThan(JSON.stringify(args).length);

    const toolCall = events.find((e) => e.type === "tool_call")!;
    expect(toolCall).toMatchObject({ tool_call_id: call.id, name: "read", args, read_only: true });
    const toolResult = events.find((e) => e.type === "tool_result")!;
    expect(toolResult.tool_call_id).toBe(call.id);
    expect(toolResult.is_error).toBe(false);
    expect(JSON.stringify(toolResult.content)).toContain("42");
    expect(blockText(second!)).toBe("The config says 42.");

    // The second provider request carries the tool result.
    expect(JSON.stringify(llm().requests[base + 1]?.body)).toContain('\\"answer\\": 42');
    const turnEnd = events.find((e) => e.type === "turn_end")!;
    expect(turnEnd.usage).toMatchObject({ input: 80, output: 16 });
    expect(events.filter((e) => e.type === "status").map((e) => e.status)).toEqual(["streaming", "idle"]);
  });

  test("a prompt with images reaches the model", async () => {
    const agent = await spawn({ model });
    const base = llm().requests.length;
    const data = Buffer.from("\x89PNG fake image bytes for the test").toString("base64");
    const events = await agent.prompt("what is in this picture?", {
      images: [{ type: "image", data, mime_type: "image/png" }],
    });
    const user = events.find((e) => e.type === "message_complete" && e.message.role === "user")!;
    expect(user.message.content).toContainEqual({ type: "image", data, mime_type: "image/png" });
    const body = JSON.stringify(llm().requests[base]?.body);
    expect(body).toContain(data);
    expect(body).toContain("image/png");
    expect(body).toContain("what is in this picture?");
  });
});

describe("line separators", () => {
  test("U+2028/U+2029 arrive intact at the model and in events, and are escaped on stdout", async () => {
    const agent = await spawn();
    const base = llm().requests.length;
    const prompt = "line one\u2028line two\u2029end";
    const answer = "echo\u2028back\u2029done";
    llm().enqueue({ steps: [{ text: answer, chunks: 2 }] });
    const events = await agent.prompt(prompt);
    const user = events.find((e) => e.type === "message_complete" && e.message.role === "user")!;
    expect(blockText(user.message)).toBe(prompt);
    expect(blockText(assistantMessages(events)[0]!)).toBe(answer);

    const messages = llm().requests[base]?.body.messages as Msg[];
    const sent = messages.find((m) => m.role === "user")!;
    expect(JSON.stringify(sent.content)).toContain(JSON.stringify(prompt).slice(1, -1));
    const text = typeof sent.content === "string" ? sent.content : sent.content[0].text;
    expect(text).toBe(prompt);

    const raw = Buffer.concat(agent.stdoutChunks);
    expect(raw.includes(Buffer.from("\u2028"))).toBe(false);
    expect(raw.includes(Buffer.from("\u2029"))).toBe(false);
    expect(raw.toString("utf8")).toContain("\\u2028");
  });
});

describe("bad input gets INVALID_REQUEST and the agent carries on", () => {
  async function expectInvalid(agent: AgentProcess, write: () => void): Promise<Msg> {
    const from = agent.events.length;
    write();
    const res = await agent.waitType("response", from);
    expect(res.success).toBe(false);
    expect(res.error.code).toBe("INVALID_REQUEST");
    expect(typeof res.error.message).toBe("string");
    return res;
  }

  test("bad JSON, unknown type, schema failures, orchestrator commands, empty prompt", async () => {
    const agent = await spawn();

    const badJson = await expectInvalid(agent, () => agent.writeRaw('{"type": "prompt", "message": \n'));
    expect(badJson.error.message).toMatch(/JSON/);

    const unknown = await expectInvalid(agent, () => agent.send({ type: "frobnicate", id: "u1" }));
    expect(unknown.id).toBe("u1");
    expect(unknown.error.message).toContain("frobnicate");

    const schema = await expectInvalid(agent, () => agent.send({ type: "set_mode", id: "s1", mode: 5 }));
    expect(schema.id).toBe("s1");
    expect(schema.error.message).toContain('field "mode"');

    const missing = await expectInvalid(agent, () => agent.send({ type: "prompt", id: "s2" }));
    expect(missing.error.message).toContain('field "message"');

    const both = await expectInvalid(agent, () =>
      agent.send({
        type: "permission_response",
        id: "p1",
        request_id: "req-x",
        choice_id: "allow_once",
        decision: "allow",
      }),
    );
    expect(both.id).toBe("p1");
    expect(both.error.message).toContain("choice_id");
    expect(both.error.message).toContain("decision");

    const badBehavior = await expectInvalid(agent, () =>
      agent.send({ type: "prompt", id: "b1", message: "hi", streaming_behavior: "later" }),
    );
    expect(badBehavior.error.message).toContain('field "streaming_behavior"');

    const orchestrator = await expectInvalid(agent, () => agent.send({ type: "agent.list", id: "o1" }));
    expect(orchestrator.id).toBe("o1");
    expect(orchestrator.error.message).toContain("agent.list");

    const empty = await expectInvalid(agent, () => agent.send({ type: "prompt", id: "e1", message: "" }));
    expect(empty.error.message).toContain("message");
    await expectInvalid(agent, () => agent.send({ type: "prompt", id: "e2", message: "   \n " }));

    // None of these touched the conversation; a normal turn still works.
    const events = await agent.prompt("still there?");
    expect(blockText(assistantMessages(events)[0]!)).toBe("Hello from the mock LLM.");
    expect(events.some((e) => e.type === "error")).toBe(false);
  });

  test("an over-long line is skipped with INVALID_REQUEST", async () => {
    const agent = await spawn();
    const huge = JSON.stringify({ type: "prompt", message: "x".repeat(17 * 1024 * 1024) });
    const res = await expectInvalid(agent, () => agent.writeRaw(`${huge}\n`));
    expect(res.error.message).toMatch(/limit/);
    const events = await agent.prompt("after the long line");
    expect(events.some((e) => e.type === "turn_end")).toBe(true);
    // The over-long prompt never became a message.
    const sync = agent.events.find((e) => e.type === "sync")!;
    expect(sync.live_window.messages).toEqual([]);
  });
});
