/**
 * The broker's per-agent projection: what it keeps of an agent whose runtime has stopped, and
 * the fast path for delta lines (forwarded unparsed, folded when read) against the ordinary one.
 */
import { expect, test } from "bun:test";
import { AgentChannel } from "../../src/daemon/broker/agent-channel.ts";
import type { ClientConnection } from "../../src/daemon/broker/client-connection.ts";
import { EncodedMessage } from "../../src/daemon/broker/encoded-message.ts";
import { MAX_PENDING_CHARS } from "../../src/daemon/broker/pending-deltas.ts";
import { RequestArbiter } from "../../src/daemon/broker/request-arbiter.ts";
import { RunBufferPool, runBuffers } from "../../src/daemon/broker/run-buffers.ts";
import type { RuntimeReady } from "../../src/daemon/registry/runtime-process.ts";
import type { Message } from "../../src/types/messages.ts";
import { deltaLineSeqAt, isThinkingDeltaLine } from "../../src/wire/delta-line.ts";
import { JsonlDecoder } from "../../src/wire/jsonl-decoder.ts";
import { asAgentEvent } from "../../src/wire/validate.ts";
import { outboundClient } from "./support/outbound-client.ts";

const arbiter = () =>
  new RequestArbiter({ policy: () => "deny", timeoutMs: 1000, answerHeadless: () => {}, timedOut: () => {} });

const message = (i: number): Message => ({
  id: `msg_${i}`,
  role: i % 2 === 0 ? "user" : "assistant",
  content: [{ type: "text", text: `message ${i}` }],
});

test("a stopped agent's conversation is dropped; what agent.list shows is kept, and the next sync restores all", () => {
  const channel = new AgentChannel("agent_a", arbiter());
  const model = { id: "mock/chat", provider: "mock", model: "chat", context_window: 1000 };
  const ready: RuntimeReady = {
    ok: true,
    hello: { type: "hello", protocol_version: "0.1.0", server_version: "0.1.0", capabilities: ["prompt"] },
    sync: {
      type: "sync",
      status: "idle",
      mode: "plan",
      live_window: { messages: Array.from({ length: 1000 }, (_, i) => message(i)) },
      pending_requests: [],
      usage: { input: 40, output: 7 },
      model,
    },
  };
  channel.replaceFromRuntime(0, ready);
  channel.apply({ type: "turn_start", turn_id: "t1" });
  expect(channel.snapshot.live_window.messages).toHaveLength(1000);

  channel.runtimeEnded();
  expect(channel.snapshot.live_window.messages).toEqual([]);
  expect(channel.snapshot.turn_id).toBeUndefined();
  expect(channel.snapshot).toMatchObject({ mode: "plan", usage: { input: 40, output: 7 }, model });
  const seqBefore = channel.sync().seq ?? 0;

  channel.replaceFromRuntime(1, ready);
  expect(channel.sync().live_window.messages).toHaveLength(1000);
  expect(channel.sync().runtime_epoch).toBe(1);
  expect(channel.sync().seq).toBe(seqBefore);
});

// ── the fast path for delta lines ────────────────────────────────────────

/** What a client of the channel received: the socket's bytes and the WebSocket's frames. */
function recordingClient(id: string) {
  const received = { text: "", bytes: 0, frames: [] as string[] };
  const client: ClientConnection = {
    id,
    localTrust: true,
    send: () => {},
    sendEncoded: (message: EncodedMessage) => {
      received.text += message.line;
      received.bytes += message.byteLength;
      received.frames.push(...message.frames);
    },
  };
  return { client, received };
}

function channelWithClient(ready: RuntimeReady) {
  const channel = new AgentChannel("agent_a", arbiter());
  channel.replaceFromRuntime(0, ready);
  const { client, received } = recordingClient("c1");
  channel.attachments.set(client.id, { client, role: "interactive", answers: new Set(["permission", "ui"]) });
  return { channel, received };
}

/** What the daemon does with a runtime line: the ordinary path only, or the fast path where it applies. */
function feed(channel: AgentChannel, line: string, fast: boolean): void {
  const seqAt = fast ? deltaLineSeqAt(line) : -1;
  if (seqAt !== -1) {
    channel.forwardDelta(line, seqAt, Buffer.byteLength(line) === line.length);
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return;
  }
  const event = asAgentEvent(value);
  if (event && event.type !== "hello" && event.type !== "sync") channel.forward(event, line);
}

const READY: RuntimeReady = {
  ok: true,
  hello: { type: "hello", protocol_version: "0.1.0", server_version: "0.1.0", capabilities: [] },
  sync: { type: "sync", status: "idle", mode: "build", live_window: { messages: [] }, pending_requests: [] },
};

/**
 * What the daemon does with a chunk of runtime output (RuntimeProcess and the broker): its ASCII
 * lines offered as runs of one activity phase, every other line one at a time, the deltas sent
 * at the chunk's end.
 */
function feedChunk(channel: AgentChannel, decoder: JsonlDecoder, chunk: string): void {
  decoder.push(Buffer.from(chunk));
  channel.flushRun();
}

function chunkDecoder(channel: AgentChannel): JsonlDecoder {
  return new JsonlDecoder({
    value: (value, line) => {
      const event = asAgentEvent(value);
      if (event && event.type !== "hello" && event.type !== "sync") channel.forward(event, line);
    },
    error: () => {},
    text: (line, ascii) => {
      const seqAt = deltaLineSeqAt(line);
      if (seqAt !== -1) channel.forwardDelta(line, seqAt, ascii);
      return seqAt !== -1;
    },
    // The phase of the run's first line, as the broker's activity would be after it.
    run: (text, from, bytes) => {
      const lf = text.indexOf("\n", from);
      const first = text.slice(from, lf === -1 ? text.length : lf);
      return channel.forwardDeltaRun(text, from, bytes, isThinkingDeltaLine(first));
    },
  });
}

/** A runtime's output for a turn: two assistant messages streamed in every delta shape. */
function turnLines(next: () => number, deltas: number, ascii = false): string[] {
  const events: object[] = [
    { type: "status", status: "streaming" },
    { type: "turn_start", turn_id: "t1" },
  ];
  const texts = ascii
    ? ["x", 'say "hi"\n', "", "\\", "\u0001", "tab\t"]
    : ["x", "é", 'say "hi"\n', "\u2028", "😀", "", "\\"];
  for (const m of ["m1", "m2"]) {
    for (let i = 0; i < deltas; i++) {
      const r = next();
      const block_index = Math.floor(next() * 3);
      const text = texts[Math.floor(next() * texts.length)];
      if (r < 0.6)
        events.push({ type: "message_delta", message_id: m, block_index, kind: "text", text_delta: text });
      else if (r < 0.7)
        events.push({
          type: "message_delta",
          message_id: m,
          block_index,
          kind: "thinking",
          text_delta: text,
        });
      else if (r < 0.8)
        events.push({
          type: "message_delta",
          message_id: m,
          block_index: 3,
          kind: "tool_call",
          tool_call_id: "c1",
          name: "bash",
        });
      else if (r < 0.9)
        events.push({
          type: "message_delta",
          message_id: m,
          block_index: 3,
          kind: "tool_call",
          args_delta: '{"a',
        });
      else if (r < 0.95) events.push({ type: "usage", input: 1, output: 1 });
      // Another key order: a valid delta the fast path leaves to the ordinary one.
      else events.push({ kind: "text", type: "message_delta", message_id: m, block_index, text_delta: "k" });
    }
    // m1 completes (its pending deltas are dropped unfolded); m2's complete names another id.
    const id = m === "m1" ? "m1" : "m-other";
    events.push({
      type: "message_complete",
      message_id: id,
      message: { id, role: "assistant", content: [] },
    });
  }
  events.push({
    type: "message_delta",
    message_id: "m3",
    block_index: 0,
    kind: "text",
    text_delta: "left open",
  });
  events.push({ type: "turn_end", turn_id: "t1" }, { type: "status", status: "idle" });
  return events.map((event, i) => JSON.stringify({ ...event, seq: i + 1 }).replace(/\u2028/g, "\\u2028"));
}

test("property: through the fast path, clients get the same bytes and every sync equals the ordinary path's", () => {
  let s = 99;
  const next = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  for (let round = 0; round < 40; round++) {
    const slow = channelWithClient(READY);
    const fast = channelWithClient(READY);
    for (const line of turnLines(next, 1 + Math.floor(next() * 60))) {
      feed(slow.channel, line, false);
      feed(fast.channel, line, true);
      // Chunks of runtime output end here and there; a sync is taken mid-stream now and then.
      if (next() < 0.3) fast.channel.flushRun();
      if (next() < 0.1) expect(JSON.stringify(fast.channel.sync())).toBe(JSON.stringify(slow.channel.sync()));
    }
    fast.channel.flushRun();
    expect(JSON.stringify(fast.channel.sync())).toBe(JSON.stringify(slow.channel.sync()));
    expect(fast.received.text).toBe(slow.received.text);
    expect(fast.received.frames).toEqual(slow.received.frames);
    expect(fast.received.bytes).toBe(Buffer.byteLength(slow.received.text));
  }
});

test("property: runs taken from chunks of output give clients the same bytes and frames, and the same syncs", () => {
  let s = 7;
  const next = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  let runs = 0;
  for (let round = 0; round < 60; round++) {
    const slow = channelWithClient(READY);
    const fast = channelWithClient(READY);
    const decoder = chunkDecoder(fast.channel);
    const taken = fast.channel.forwardDeltaRun.bind(fast.channel);
    fast.channel.forwardDeltaRun = (...args) => {
      const run = taken(...args);
      if (run !== undefined) runs++;
      return run;
    };
    const lines = turnLines(next, 1 + Math.floor(next() * 80), next() < 0.7);
    let chunk = "";
    for (const line of lines) {
      feed(slow.channel, line, false);
      // A chunk may end inside a line (its rest comes with the next chunk), or at a CRLF.
      chunk += next() < 0.05 ? `${line}\r\n` : `${line}\n`;
      if (next() < 0.2) {
        const cut = next() < 0.3 ? Math.floor(next() * chunk.length) : chunk.length;
        feedChunk(fast.channel, decoder, chunk.slice(0, cut));
        chunk = chunk.slice(cut);
        if (next() < 0.3) {
          // The slow side has seen every line so far; the fast one all but a partial line.
          if (chunk === "")
            expect(JSON.stringify(fast.channel.sync())).toBe(JSON.stringify(slow.channel.sync()));
        }
      }
    }
    feedChunk(fast.channel, decoder, chunk);
    expect(JSON.stringify(fast.channel.sync())).toBe(JSON.stringify(slow.channel.sync()));
    expect(fast.received.text).toBe(slow.received.text);
    expect(fast.received.frames).toEqual(slow.received.frames);
    expect(fast.received.bytes).toBe(Buffer.byteLength(slow.received.text));
  }
  // The runs were taken (not only the one-line path).
  expect(runs).toBeGreaterThan(100);
});

test("runs written while a socket client is blocked reach it intact when it drains (the run buffer is reused)", async () => {
  let s = 3;
  const next = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const slow = channelWithClient(READY);
  const channel = new AgentChannel("agent_a", arbiter());
  channel.replaceFromRuntime(0, READY);
  // A unix client whose peer takes nothing until told to: every run waits in its outbound buffer.
  const taken: Uint8Array[] = [];
  let room = 0;
  const { client, outbound } = outboundClient("c1", (bytes) => {
    const n = Math.min(room, bytes.length);
    taken.push(bytes.slice(0, n));
    room -= n;
    return n;
  });
  channel.attachments.set(client.id, { client, role: "interactive", answers: new Set(["permission", "ui"]) });
  const decoder = chunkDecoder(channel);
  let chunk = "";
  for (const line of turnLines(next, 400, true)) {
    feed(slow.channel, line, false);
    chunk += `${line}\n`;
    if (next() < 0.1) {
      feedChunk(channel, decoder, chunk);
      chunk = "";
      await Promise.resolve();
      // Now and then the peer takes a little, so a run is left part-written.
      if (next() < 0.3) {
        room = Math.floor(next() * 500);
        outbound.drain();
      }
    }
  }
  feedChunk(channel, decoder, chunk);
  await Promise.resolve();
  room = Number.MAX_SAFE_INTEGER;
  outbound.drain();
  expect(Buffer.concat(taken).toString()).toBe(slow.received.text);
  expect(JSON.stringify(channel.sync())).toBe(JSON.stringify(slow.channel.sync()));
  // Every run written: the buffers the client held are back for the next runs.
  expect(runBuffers.idleCount).toBeGreaterThan(0);
});

test("a run's message read after it was released fails loudly instead of reading another run", () => {
  const pool = new RunBufferPool();
  const run = pool.take();
  const line = '{"type":"status","status":"idle","seq":1,"agent_id":"agent_a"}\n';
  const bytes = run.bytes.subarray(0, run.bytes.write(line));
  const read = EncodedMessage.ofHeldBytes(bytes, run);
  expect(read.hold).toBe(run);
  expect(read.frames).toEqual([line.slice(0, -1)]);
  read.release();
  // What a client took while it was being sent stays readable.
  expect(read.line).toBe(line);
  const unread = EncodedMessage.ofHeldBytes(bytes, run);
  unread.release();
  expect(unread.hold).toBeUndefined();
  expect(() => unread.wire).toThrow("released");
  expect(() => unread.frames).toThrow("released");
});

test("a run past the pending bound is folded; the sync is still exact", () => {
  const slow = channelWithClient(READY);
  const fast = channelWithClient(READY);
  const decoder = chunkDecoder(fast.channel);
  const count = Math.ceil(MAX_PENDING_CHARS / 100) * 2;
  let chunk = "";
  for (let i = 1; i <= count; i++) {
    const line = JSON.stringify({
      type: "message_delta",
      message_id: "m1",
      block_index: 0,
      kind: "text",
      text_delta: i % 1000 === 0 ? "\\" : "x",
      seq: i,
    });
    feed(slow.channel, line, false);
    chunk += `${line}\n`;
    if (i % 997 === 0) {
      feedChunk(fast.channel, decoder, chunk);
      chunk = "";
    }
  }
  feedChunk(fast.channel, decoder, chunk);
  expect(JSON.stringify(fast.channel.sync())).toBe(JSON.stringify(slow.channel.sync()));
  expect(fast.received.text).toBe(slow.received.text);
});

test("deltas past the pending bound are folded as they come; the sync is still exact", () => {
  const slow = channelWithClient(READY);
  const fast = channelWithClient(READY);
  const count = Math.ceil(MAX_PENDING_CHARS / 100) * 2;
  for (let i = 1; i <= count; i++) {
    const line = JSON.stringify({
      type: "message_delta",
      message_id: "m1",
      block_index: 0,
      kind: "text",
      text_delta: i % 1000 === 0 ? "é\\" : "x",
      seq: i,
    });
    feed(slow.channel, line, false);
    feed(fast.channel, line, true);
  }
  expect(JSON.stringify(fast.channel.sync())).toBe(JSON.stringify(slow.channel.sync()));
  expect(fast.channel.sync().streaming_message?.blocks[0]?.text).toHaveLength(
    count + Math.floor(count / 1000),
  );
});

test("a delta run leaves before any other message of the agent, in order", () => {
  const { channel, received } = channelWithClient(READY);
  const delta = (seq: number) =>
    `{"type":"message_delta","message_id":"m","block_index":0,"kind":"text","text_delta":"${seq}","seq":${seq}}`;
  for (const seq of [1, 2]) feed(channel, delta(seq), true);
  expect(received.frames).toEqual([]);
  channel.fanOut(channel.apply({ type: "error", code: "TIMEOUT", message: "late", fatal: false }));
  feed(channel, delta(3), true);
  feed(channel, JSON.stringify({ type: "status", status: "idle", seq: 4 }), true);
  expect(received.frames.map((f) => JSON.parse(f).seq)).toEqual([1, 2, 3, 4, 5]);
  expect(received.frames.map((f) => JSON.parse(f).type)).toEqual([
    "message_delta",
    "message_delta",
    "error",
    "message_delta",
    "status",
  ]);
});
