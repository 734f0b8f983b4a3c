/** The broker's per-agent projection: what it keeps of an agent whose runtime has stopped. */
import { expect, test } from "bun:test";
import { AgentChannel } from "../../src/daemon/broker/agent-channel.ts";
import { RequestArbiter } from "../../src/daemon/broker/request-arbiter.ts";
import type { RuntimeReady } from "../../src/daemon/registry/runtime-process.ts";
import type { Message } from "../../src/types/messages.ts";

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
