/**
 * The daemon link over stdio (`--daemon-link stdio`, protocol-additions §27), with a real
 * `shard agent` and this test as its daemon: the `subagent` tool's command goes out as a
 * `daemon_request` on stdout and the answer comes back as `daemon_response` on stdin. An answer
 * for no open request, for another command, malformed or oversized is refused with a clear
 * error and never reaches the tool; an aborted or timed-out call sends `daemon_cancel`.
 */
import { describe, expect, test } from "bun:test";
import { MAX_DAEMON_LINK_BYTES } from "../../src/types/daemon-link.ts";
import { AgentProcess, type Msg } from "./support/agent-process.ts";
import { useAgentHarness } from "./support/harness.ts";

const AGENT = "agent-parent1";
const h = useAgentHarness({ args: ["--daemon-link", "stdio", "--agent-id", AGENT] });

/** The model calls `subagent` with `args`, then says "done"; the call is allowed. */
async function subagentCall(
  agent: AgentProcess,
  args: Record<string, unknown>,
): Promise<{ from: number; request: Msg }> {
  // Each call's replies answer its own prompt only: an aborted turn leaves its second one unused.
  const tag = `SUBAGENT-CALL-${crypto.randomUUID()}`;
  h.llm().enqueue(
    { when: tag, steps: [{ tool_call: { name: "subagent", args } }] },
    { when: tag, steps: [{ text: "done" }] },
  );
  const from = agent.events.length;
  const started = await agent.request({ type: "prompt", message: `use the subagent tool ${tag}` });
  expect(started.success).toBe(true);
  const ask = await agent.waitType("permission_request", from);
  agent.send({ type: "permission_response", request_id: ask.request_id, decision: "allow" });
  const request = await agent.waitType("daemon_request", from);
  return { from, request };
}

const STATUS_RESULT = { agents: [], jobs: [] };

describe("the daemon link over stdio", () => {
  test("the tool's command goes out as daemon_request, names this agent as the parent, and the daemon's answer is its result", async () => {
    const agent = await h.spawn();
    const { from, request } = await subagentCall(agent, { action: "status" });
    expect(request.request).toEqual({ type: "subagent.status", parent_agent_id: AGENT });
    expect(typeof request.id).toBe("string");
    const ack = await agent.request({
      type: "daemon_response",
      id: request.id,
      response: { type: "response", command: "subagent.status", success: true, data: STATUS_RESULT },
    });
    // The `response` to a daemon_response is the runtime's receipt, with the link request's id.
    expect(ack.success).toBe(true);
    const result = await agent.waitType("tool_result", from);
    expect(result.is_error).toBe(false);
    expect(result.content.value).toEqual(STATUS_RESULT);
    await agent.waitTurnEnd(from);
    // Answered once: the same answer again is for no open request.
    const again = await agent.request({
      type: "daemon_response",
      id: request.id,
      response: { type: "response", command: "subagent.status", success: true, data: STATUS_RESULT },
    });
    expect(again.success).toBe(false);
    expect(again.error.code).toBe("NOT_FOUND");
    expect(again.error.message).toContain(`no daemon request ${request.id} is open`);
  });

  test("forged, malformed and oversized answers are refused with a clear error; the tool never takes them", async () => {
    const agent = await h.spawn();
    const { from, request } = await subagentCall(agent, { action: "status" });
    // Forged: an id that no request carries.
    const forged = await agent.request({
      type: "daemon_response",
      id: "dl-forged",
      response: { type: "response", command: "subagent.status", success: true, data: STATUS_RESULT },
    });
    expect(forged.success).toBe(false);
    expect(forged.error.code).toBe("NOT_FOUND");
    expect(forged.error.message).toContain("no daemon request dl-forged is open");
    // Forged: the open request's id, answering another command.
    const crossed = await agent.request({
      type: "daemon_response",
      id: request.id,
      response: { type: "response", command: "agent.list", success: true, data: { agents: [] } },
    });
    expect(crossed.error.code).toBe("INVALID_REQUEST");
    expect(crossed.error.message).toContain("it answers agent.list, but the request was subagent.status");
    // Malformed: no `response` envelope.
    const malformed = await agent.request({ type: "daemon_response", id: request.id, response: { ok: 1 } });
    expect(malformed.error.code).toBe("INVALID_REQUEST");
    expect(malformed.error.message).toContain("daemon_response");
    expect(malformed.error.message).toContain("response");
    // The request is still open: nothing above reached the tool.
    await agent.barrier();
    expect(agent.events.slice(from).some((m) => m.type === "tool_result")).toBe(false);
    // Oversized: refused, and the call fails with the reason instead of waiting for its timeout.
    const big = "x".repeat(MAX_DAEMON_LINK_BYTES + 10);
    const oversized = await agent.request({
      type: "daemon_response",
      id: request.id,
      response: {
        type: "response",
        command: "subagent.status",
        success: false,
        error: { code: "INTERNAL_ERROR", message: big },
      },
    });
    expect(oversized.error.code).toBe("INVALID_REQUEST");
    expect(oversized.error.message).toContain(`over the link's ${MAX_DAEMON_LINK_BYTES}-byte limit`);
    const result = await agent.waitType("tool_result", from);
    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result.content)).toContain("byte limit");
    expect(JSON.stringify(result.content)).not.toContain(big.slice(0, 100));
    await agent.waitTurnEnd(from);
    // The daemon answered, so there is nothing to cancel.
    expect(agent.events.slice(from).some((m) => m.type === "daemon_cancel")).toBe(false);
  });

  test("an aborted tool call cancels its request, and a late answer is refused", async () => {
    const agent = await h.spawn();
    const { from, request } = await subagentCall(agent, { action: "wait", handles: ["job-x"] });
    // A wait without a timeout is bounded over the link.
    expect(request.request.type).toBe("subagent.wait");
    expect(request.request.timeout).toBe(3600);
    const aborted = await agent.request({ type: "abort" });
    expect(aborted.success).toBe(true);
    const cancel = await agent.waitType("daemon_cancel", from);
    expect(cancel.id).toBe(request.id);
    await agent.waitTurnEnd(from);
    const late = await agent.request({
      type: "daemon_response",
      id: request.id,
      response: { type: "response", command: "subagent.wait", success: true, data: {} },
    });
    expect(late.error.code).toBe("NOT_FOUND");
  });

  test("a request the daemon does not answer times out: the tool says so and the request is cancelled", async () => {
    const agent = await h.spawn({ env: { SHARD_DAEMON_LINK_TIMEOUT_MS: "400" } });
    const { from, request } = await subagentCall(agent, { action: "status" });
    const cancel = await agent.waitType("daemon_cancel", from);
    expect(cancel.id).toBe(request.id);
    const result = await agent.waitType("tool_result", from);
    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result.content)).toContain("no answer within 0.4 s");
    await agent.waitTurnEnd(from);
  });

  test("--daemon-link needs --agent-id, and stdio is the only link", async () => {
    for (const args of [
      ["--daemon-link", "stdio"],
      ["--agent-id", AGENT],
      ["--daemon-link", "tcp", "--agent-id", AGENT],
      ["--daemon-link", "stdio", "--agent-id", "a b"],
    ]) {
      const agent = new AgentProcess({ llmUrl: h.llm().url, args });
      expect(await agent.exit()).toBe(2);
      expect(agent.stderr).toMatch(/--daemon-link|--agent-id/);
    }
  });
});
