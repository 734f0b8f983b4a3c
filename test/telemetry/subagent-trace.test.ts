/**
 * Parent → subagent linkage through a real `shard daemon` with export on: the children's turn
 * spans are in the parent's trace, under the `subagent` tool call that launched them
 * (TRACEPARENT, docs/protocol-additions.md §22), and the daemon exports the live-runtimes metric.
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import { DaemonProcess } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { metricNamesOf, spansOf } from "./support/otlp-decode.ts";
import { type OtlpReceiver, startOtlpReceiver } from "./support/otlp-receiver.ts";

setDefaultTimeout(120_000);

const llm = useMockLlmServer();
let receiver: OtlpReceiver | undefined;
let daemon: DaemonProcess | undefined;
afterEach(async () => {
  await daemon?.stop();
  await receiver?.close();
});

test("a subagent's turn spans are children of the parent's subagent tool-call span", async () => {
  receiver = startOtlpReceiver();
  const home = mockHome(llm().url);
  daemon = new DaemonProcess(home, ["--port", "0"], ["daemon"], {
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" },
  });
  await daemon.url();
  const client = await daemon.client();
  const created = await client.ok({ type: "agent.create", cwd: tempDir("cwd"), model: "mock/chat" });
  const parent: string = created.agent_id;
  await client.ok({ type: "agent.attach", agent_id: parent });
  llm().enqueue(
    {
      when: "DELEGATE-NOW",
      steps: [
        {
          tool_call: {
            name: "subagent",
            args: {
              action: "create",
              strategy: "parallel",
              tasks: [{ name: "kid", task: "TASK-KID count" }],
            },
          },
        },
      ],
    },
    { when: "DELEGATE-NOW", steps: [{ text: "dispatched" }] },
    { when: "TASK-KID", steps: [{ text: "counted" }] },
  );
  const from = client.messages.length;
  await client.ok({ type: "prompt", agent_id: parent, message: "DELEGATE-NOW" });
  const ask = await client.waitAgent(parent, "permission_request", from);
  await client.ok({
    type: "permission_response",
    agent_id: parent,
    request_id: ask.request_id,
    decision: "allow",
  });
  const result = await client.waitAgent(parent, "tool_result", from);
  expect(result.is_error).toBe(false);
  const child: string = result.content.value.runs[0].agent_id;
  const waited = await client.ok({
    type: "subagent.wait",
    parent_agent_id: parent,
    handles: [result.content.value.job_id],
  });
  expect(waited.runs[0].state).toBe("completed");
  client.close();
  // Stopping the daemon stops every runtime; each flushes its spans, then the daemon its metrics.
  await daemon.stop();
  daemon = undefined;

  const spans = spansOf(receiver.requests);
  const toolSpan = spans.find(
    (s) => s.name === "shard.tool_call" && s.attributes["gen_ai.tool.name"] === "subagent",
  );
  expect(toolSpan).toBeDefined();
  const parentTurn = spans.find((s) => s.name === "shard.turn" && s.spanId === toolSpan?.parentSpanId);
  expect(parentTurn?.attributes["shard.agent.id"]).toBe(parent);
  const childTurns = spans.filter((s) => s.name === "shard.turn" && s.attributes["shard.agent.id"] === child);
  expect(childTurns.length).toBe(1);
  expect(childTurns[0]?.traceId).toBe(toolSpan?.traceId ?? "");
  expect(childTurns[0]?.parentSpanId).toBe(toolSpan?.spanId ?? "");
  // The child's provider call hangs under its own turn, in the same trace.
  const childCall = spans.find(
    (s) => s.name === "shard.provider_call" && s.parentSpanId === childTurns[0]?.spanId,
  );
  expect(childCall?.traceId).toBe(toolSpan?.traceId ?? "");
  expect(metricNamesOf(receiver.requests)).toContain("shard.runtimes.live");
});
