/**
 * Broadcast requests through the daemon (docs/protocol.md §5.3, §5.4, docs/architecture.md §5.4):
 * first valid response wins, observers never answer, the headless path answers when nobody
 * interactive is attached, and a reconnecting client sees the open request again.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { askBash as askBashOf } from "./support/ask-bash.ts";
import { childAgent } from "./support/child-agent.ts";
import type { DaemonClient, Msg } from "./support/daemon-client.ts";
import { type DaemonHarness, useDaemonHarnesses } from "./support/daemon-harness.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
let harness: DaemonHarness | undefined;
const startHarness = useDaemonHarnesses(llm);

/** The model calls bash (which asks), then says done. Returns the permission_request. */
const askBash = (client: DaemonClient, agentId: string, command?: string) =>
  askBashOf(llm(), client, agentId, command);

for (const transport of ["unix", "websocket"] as const) {
  describe(`permissions over ${transport}`, () => {
    test("a race: both clients answer, exactly one wins, both see resolved with the winner as source", async () => {
      harness = await startHarness();
      const a = await harness.client(transport);
      const b = await harness.client(transport);
      const agentId = await harness.createAgent(a);
      await a.ok({ type: "agent.attach", agent_id: agentId });
      await b.ok({ type: "agent.attach", agent_id: agentId });
      const fromB = b.messages.length;
      const req = await askBash(a, agentId);
      const reqB = await b.waitAgent(agentId, "permission_request", fromB);
      expect(reqB.request_id).toBe(req.request_id);
      // Both answer at once; the daemon sees one of them first.
      a.send({
        type: "permission_response",
        id: "ra",
        agent_id: agentId,
        request_id: req.request_id,
        decision: "allow",
      });
      b.send({
        type: "permission_response",
        id: "rb",
        agent_id: agentId,
        request_id: req.request_id,
        decision: "deny",
      });
      const [resA, resB] = await Promise.all([
        a.waitFor((m) => m.type === "response" && m.id === "ra"),
        b.waitFor((m) => m.type === "response" && m.id === "rb"),
      ]);
      // Late answers are dropped silently: accepted, never an error.
      expect(resA.success).toBe(true);
      expect(resB.success).toBe(true);
      const resolvedA = await a.waitAgent(agentId, "permission_resolved");
      const resolvedB = await b.waitAgent(agentId, "permission_resolved");
      expect(resolvedB).toEqual(resolvedA);
      expect(["allow", "deny"]).toContain(resolvedA.decision);
      const winner = resolvedA.decision === "allow" ? a : b;
      // The source names the winning connection: it is not "headless", and the same on both.
      expect(resolvedA.source).toMatch(/^conn_/);
      await a.waitAgent(agentId, "turn_end");
      const toolResults = a.agentEvents(agentId).filter((m) => m.type === "tool_result");
      expect(toolResults).toHaveLength(1);
      expect(toolResults[0]?.is_error).toBe(winner === b);
      expect(a.agentEvents(agentId).filter((m) => m.type === "permission_resolved")).toHaveLength(1);
    });

    test("observers get PERMISSION_DENIED; an unknown choice_id leaves the request open", async () => {
      harness = await startHarness();
      const a = await harness.client(transport);
      const watcher = await harness.client(transport);
      const agentId = await harness.createAgent(a);
      await a.ok({ type: "agent.attach", agent_id: agentId });
      await watcher.ok({ type: "agent.attach", agent_id: agentId, role: "observer" });
      const req = await askBash(a, agentId);
      const denied = await watcher.request({
        type: "permission_response",
        agent_id: agentId,
        request_id: req.request_id,
        decision: "allow",
      });
      expect(denied.error.code).toBe("PERMISSION_DENIED");
      const bogus = await a.request({
        type: "permission_response",
        agent_id: agentId,
        request_id: req.request_id,
        choice_id: "allow_everything_forever",
      });
      expect(bogus.error.code).toBe("INVALID_REQUEST");
      // Still open: the status poll is the barrier, and a valid answer still wins.
      const status = await a.ok({ type: "agent.status", agent_id: agentId });
      expect(status.agents[0].status).toBe("waiting_for_permission");
      expect(a.agentEvents(agentId).some((m) => m.type === "permission_resolved")).toBe(false);
      await a.ok({
        type: "permission_response",
        agent_id: agentId,
        request_id: req.request_id,
        choice_id: "allow_once",
      });
      const resolved = await watcher.waitAgent(agentId, "permission_resolved");
      expect(resolved.choice_id).toBe("allow_once");
      await a.waitAgent(agentId, "turn_end");
    });

    test("with only an observer attached, the headless deny policy answers with source headless", async () => {
      harness = await startHarness();
      const a = await harness.client(transport);
      const agentId = await harness.createAgent(a);
      await a.ok({ type: "agent.attach", agent_id: agentId, role: "observer" });
      await askBash(a, agentId, "touch should-not-exist");
      const resolved = await a.waitAgent(agentId, "permission_resolved");
      expect(resolved).toMatchObject({ decision: "deny", source: "headless" });
      await a.waitAgent(agentId, "turn_end");
      const result = a.agentEvents(agentId).find((m) => m.type === "tool_result");
      expect(result?.is_error).toBe(true);
    });

    test("a reconnect in the middle of a permission ask re-shows the request in sync", async () => {
      harness = await startHarness();
      const a = await harness.client(transport);
      const agentId = await harness.createAgent(a);
      await a.ok({ type: "agent.attach", agent_id: agentId });
      const req = await askBash(a, agentId);
      a.close();
      await a.whenClosed();
      const again = await harness.client(transport);
      const attached = await again.ok({ type: "agent.attach", agent_id: agentId });
      expect(attached.status).toBe("waiting_for_permission");
      const sync = await again.waitAgent(agentId, "sync");
      expect(sync.status).toBe("waiting_for_permission");
      expect(sync.pending_requests.map((r: Msg) => r.request_id)).toEqual([req.request_id]);
      await again.ok({
        type: "permission_response",
        agent_id: agentId,
        request_id: req.request_id,
        decision: "allow",
      });
      const resolved = await again.waitAgent(agentId, "permission_resolved");
      expect(resolved.decision).toBe("allow");
      await again.waitAgent(agentId, "turn_end");
    });
  });
}

describe("headless queue policy", () => {
  test("a queued request waits for an interactive attach, which answers it", async () => {
    harness = await startHarness();
    const watcher = await harness.unixClient();
    const agentId = await harness.createAgent(watcher, { headless_policy: "queue" });
    await watcher.ok({ type: "agent.attach", agent_id: agentId, role: "observer" });
    const req = await askBash(watcher, agentId);
    const status = await watcher.ok({ type: "agent.status", agent_id: agentId });
    expect(status.agents[0].status).toBe("waiting_for_permission");
    const responder = await harness.unixClient();
    await responder.ok({ type: "agent.attach", agent_id: agentId });
    const sync = await responder.waitAgent(agentId, "sync");
    expect(sync.pending_requests.map((r: Msg) => r.request_id)).toEqual([req.request_id]);
    await responder.ok({
      type: "permission_response",
      agent_id: agentId,
      request_id: req.request_id,
      decision: "allow",
    });
    const resolved = await watcher.waitAgent(agentId, "permission_resolved");
    expect(resolved.decision).toBe("allow");
    expect(resolved.source).toMatch(/^conn_/);
    await watcher.waitAgent(agentId, "turn_end");
  });

  test("a queued request nobody answers is denied when the headless timeout fires", async () => {
    harness = await startHarness({ headlessTimeoutMs: 200 });
    const watcher = await harness.unixClient();
    const agentId = await harness.createAgent(watcher, { headless_policy: "queue" });
    await watcher.ok({ type: "agent.attach", agent_id: agentId, role: "observer" });
    const req = await askBash(watcher, agentId);
    const timeout = await watcher.waitAgent(agentId, "error");
    expect(timeout.code).toBe("TIMEOUT");
    expect(timeout.message).toContain(req.request_id);
    const resolved = await watcher.waitAgent(agentId, "permission_resolved");
    expect(resolved).toMatchObject({ decision: "deny", source: "headless" });
    await watcher.waitAgent(agentId, "turn_end");
  });
});

describe("hierarchical routing", () => {
  test("a child's request goes to the nearest interactive ancestor, keeping the child's agent_id", async () => {
    harness = await startHarness();
    const parentClient = await harness.unixClient();
    const childWatcher = await harness.unixClient();
    const grandparent = await harness.createAgent(parentClient);
    const parent = await childAgent(llm(), parentClient, grandparent);
    const child = await childAgent(llm(), parentClient, parent);
    await parentClient.ok({ type: "agent.attach", agent_id: parent });
    // Observers do not count: without routing, the headless path would deny at once.
    await childWatcher.ok({ type: "agent.attach", agent_id: child, role: "observer" });
    const from = parentClient.messages.length;
    const req = await askBash(childWatcher, child);
    const shown = await parentClient.waitFor((m) => m.type === "permission_request", from);
    expect(shown).toMatchObject({ agent_id: child, request_id: req.request_id });
    await parentClient.ok({
      type: "permission_response",
      agent_id: child,
      request_id: req.request_id,
      decision: "allow",
    });
    const resolved = await childWatcher.waitAgent(child, "permission_resolved");
    expect(resolved.decision).toBe("allow");
    expect(resolved.source).toMatch(/^conn_/);
    // The ancestor's client sees it close too, still under the child's id.
    expect(await parentClient.waitAgent(child, "permission_resolved", from)).toMatchObject({
      request_id: req.request_id,
    });
    await childWatcher.waitAgent(child, "turn_end");
  });

  test("an ancestor that reconnects is shown the child's open request again", async () => {
    harness = await startHarness();
    const first = await harness.unixClient();
    const watcher = await harness.unixClient();
    // A child inherits its parent's headless policy: queue, so its request waits for the ancestor.
    const parent = await harness.createAgent(first, { headless_policy: "queue" });
    const child = await childAgent(llm(), first, parent);
    await first.ok({ type: "agent.attach", agent_id: parent });
    await watcher.ok({ type: "agent.attach", agent_id: child, role: "observer" });
    const req = await askBash(watcher, child);
    await first.waitFor((m) => m.type === "permission_request" && m.request_id === req.request_id);
    first.close();
    await first.whenClosed();
    const again = await harness.unixClient();
    await again.ok({ type: "agent.attach", agent_id: parent });
    const shown = await again.waitFor((m) => m.type === "permission_request");
    expect(shown).toMatchObject({ agent_id: child, request_id: req.request_id });
    await again.ok({
      type: "permission_response",
      agent_id: child,
      request_id: req.request_id,
      decision: "allow",
    });
    expect((await watcher.waitAgent(child, "permission_resolved")).decision).toBe("allow");
    await watcher.waitAgent(child, "turn_end");
  });

  test("a client of an unrelated agent cannot answer", async () => {
    harness = await startHarness();
    const stranger = await harness.unixClient();
    const watcher = await harness.unixClient();
    const other = await harness.createAgent(stranger);
    const child = await harness.createAgent(watcher, { headless_policy: "queue" });
    await stranger.ok({ type: "agent.attach", agent_id: other });
    await watcher.ok({ type: "agent.attach", agent_id: child, role: "observer" });
    const req = await askBash(watcher, child);
    const res = await stranger.request({
      type: "permission_response",
      agent_id: child,
      request_id: req.request_id,
      decision: "allow",
    });
    expect(res.error.code).toBe("NOT_ATTACHED");
    await watcher.ok({ type: "abort", agent_id: child });
    await watcher.waitAgent(child, "turn_end");
  });
});
