/**
 * OpenTelemetry export from a real `shard agent` process to a local OTLP/HTTP receiver, in both
 * encodings: spans for the turn, its provider calls and its tool call, linked as parent and
 * child, the metrics, and no prompt, tool argument or output unless SHARD_OTEL_LOG_CONTENT=1
 * (docs/telemetry.md).
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { AgentProcess, Msg } from "../agent/support/agent-process.ts";
import { useAgentHarness } from "../agent/support/harness.ts";
import { metricNamesOf, type ReceivedSpan, spansOf } from "./support/otlp-decode.ts";
import { type OtlpReceiver, startOtlpReceiver } from "./support/otlp-receiver.ts";

setDefaultTimeout(60_000);

const { llm, spawn } = useAgentHarness();
const receivers: OtlpReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

const SECRET_PROMPT = "prompt-secret-7f3a please list the files";
const SECRET_ARG = "arg-secret-91bc";
const SECRET_OUTPUT = "output-secret-c4d2";

/** One turn: the model calls `bash` (a permission question, answered), then answers in text. */
async function turnWithToolCall(
  env: Record<string, string>,
): Promise<{ agent: AgentProcess; receiver: OtlpReceiver }> {
  const receiver = startOtlpReceiver();
  receivers.push(receiver);
  llm().enqueue(
    {
      steps: [{ tool_call: { name: "bash", args: { command: `echo ${SECRET_ARG} ${SECRET_OUTPUT}` } } }],
      usage: { input: 120, output: 30 },
    },
    { steps: [{ text: "done" }], usage: { input: 200, output: 5 } },
  );
  const agent = await spawn({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...env } });
  const from = agent.events.length;
  agent.send({ type: "prompt", id: "p1", message: SECRET_PROMPT });
  const ask = await agent.waitType("permission_request", from);
  agent.send({ type: "permission_response", request_id: ask.request_id, decision: "allow" });
  await agent.waitFor((m: Msg) => m.type === "turn_end", from);
  // Export happens at the latest on exit (stdin EOF flushes spans and metrics).
  expect(await agent.close()).toBe(0);
  return { agent, receiver };
}

function one(spans: ReceivedSpan[], name: string): ReceivedSpan {
  const found = spans.filter((s) => s.name === name);
  expect(found.length).toBe(1);
  return found[0]!;
}

function expectTurnSpans(spans: ReceivedSpan[], agent: AgentProcess): void {
  const turn = one(spans, "shard.turn");
  const turnEnd = agent.events.find((m) => m.type === "turn_end");
  const sync = agent.events.find((m) => m.type === "sync");
  expect(turn.parentSpanId).toBe("");
  expect(turn.attributes).toMatchObject({
    "shard.turn.id": turnEnd?.turn_id,
    "shard.session.id": sync?.session_id,
    "gen_ai.request.model": "mock/chat",
    "shard.mode": "build",
    "shard.turn.end_reason": "completed",
    "gen_ai.usage.input_tokens": 320,
    "gen_ai.usage.output_tokens": 35,
  });
  expect(turn.resource["service.name"]).toBe("shard");

  const calls = spans.filter((s) => s.name === "shard.provider_call");
  expect(calls.length).toBe(2);
  for (const call of calls) {
    expect(call.traceId).toBe(turn.traceId);
    expect(call.parentSpanId).toBe(turn.spanId);
    expect(call.attributes).toMatchObject({
      "gen_ai.request.model": "chat",
      "gen_ai.provider.name": "mock",
      "shard.provider.status": "ok",
      "shard.provider.retries": 0,
    });
    expect(typeof call.attributes["shard.provider.latency_ms"]).toBe("number");
  }
  expect(calls.map((c) => c.attributes["gen_ai.usage.input_tokens"]).sort()).toEqual([120, 200]);
  // models.json prices mock/chat at $1 / $2 per million tokens: 120 in + 30 out.
  expect(
    calls.find((c) => c.attributes["gen_ai.usage.input_tokens"] === 120)?.attributes["shard.cost_usd"],
  ).toBeCloseTo((120 * 1 + 30 * 2) / 1_000_000, 12);

  const tool = one(spans, "shard.tool_call");
  const result = agent.events.find((m) => m.type === "tool_result");
  expect(tool.traceId).toBe(turn.traceId);
  expect(tool.parentSpanId).toBe(turn.spanId);
  expect(tool.attributes).toMatchObject({
    "gen_ai.tool.name": "bash",
    "gen_ai.tool.call.id": result?.tool_call_id,
    "shard.tool.outcome": "ok",
    "process.exit.code": 0,
  });
  expect(typeof tool.attributes["shard.tool.duration_ms"]).toBe("number");
  // Sandboxed or not, as the tool_result told the client.
  if (result?.sandbox !== undefined) {
    expect(tool.attributes["shard.tool.sandbox"]).toBe(result.sandbox);
    expect(tool.attributes["shard.tool.sandboxed"]).toBe(result.sandbox !== "off");
  }
}

const METRICS = ["shard.tokens", "shard.cost", "shard.turns", "shard.tool_calls", "shard.permission.wait"];

for (const protocol of ["http/json", "http/protobuf"] as const) {
  describe(`OTLP ${protocol}`, () => {
    test("a turn with a tool call exports its spans and metrics, and no content", async () => {
      const { agent, receiver } = await turnWithToolCall({ OTEL_EXPORTER_OTLP_PROTOCOL: protocol });
      const contentType = protocol === "http/json" ? "application/json" : "application/x-protobuf";
      expect(receiver.requests.length).toBeGreaterThan(0);
      for (const r of receiver.requests) expect(r.contentType).toBe(contentType);
      expectTurnSpans(spansOf(receiver.requests), agent);
      expect(new Set(metricNamesOf(receiver.requests))).toEqual(new Set(METRICS));
      // The prompt, the tool's arguments and its output were real (the tool ran and said so)...
      expect(JSON.stringify(agent.events)).toContain(SECRET_OUTPUT);
      // ...and none of them left the process.
      const sent = new TextDecoder().decode(receiver.allBytes());
      for (const secret of ["prompt-secret-7f3a", SECRET_ARG, SECRET_OUTPUT])
        expect(sent).not.toContain(secret);
    });
  });
}

test("SHARD_OTEL_LOG_CONTENT=1 exports the prompt, the tool arguments and the output", async () => {
  const { receiver } = await turnWithToolCall({
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
    SHARD_OTEL_LOG_CONTENT: "1",
  });
  const spans = spansOf(receiver.requests);
  expect(one(spans, "shard.turn").attributes["shard.prompt"]).toBe(SECRET_PROMPT);
  const tool = one(spans, "shard.tool_call").attributes;
  expect(JSON.parse(String(tool["gen_ai.tool.call.arguments"]))).toEqual({
    command: `echo ${SECRET_ARG} ${SECRET_OUTPUT}`,
  });
  expect(String(tool["gen_ai.tool.call.result"])).toContain(`${SECRET_ARG} ${SECRET_OUTPUT}`);
});

test("OTEL_SERVICE_NAME names the service", async () => {
  const { receiver } = await turnWithToolCall({
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_SERVICE_NAME: "team-agents",
  });
  const spans = spansOf(receiver.requests);
  expect(spans.length).toBeGreaterThan(0);
  for (const span of spans) expect(span.resource["service.name"]).toBe("team-agents");
});

test("a runtime on the stdio daemon link (a command or container placement) names its agent on the turn span", async () => {
  const receiver = startOtlpReceiver();
  receivers.push(receiver);
  llm().enqueue({ steps: [{ text: "placed" }] });
  const agent = await spawn({
    args: ["--daemon-link", "stdio", "--agent-id", "agent-placed-otel"],
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" },
  });
  const from = agent.events.length;
  agent.send({ type: "prompt", id: "p1", message: "hello" });
  await agent.waitFor((m: Msg) => m.type === "turn_end", from);
  expect(await agent.close()).toBe(0);
  const turn = one(spansOf(receiver.requests), "shard.turn");
  expect(turn.attributes["shard.agent.id"]).toBe("agent-placed-otel");
});
