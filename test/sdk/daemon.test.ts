/**
 * The daemon transport against a real in-process daemon spawning real `shard agent` children
 * on the mock LLM: create / attach / run over the unix socket, client state equal to a fresh
 * attach's `sync`, permission handlers (and being told when another client won), sessions.
 */

import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { connectDaemon, type DaemonClient } from "../../sdk/src/daemon-client.ts";
import { ShardError } from "../../sdk/src/errors.ts";
import { ResolvedElsewhere } from "../../sdk/src/request-responder.ts";
import { snapshotFromSync } from "../../src/snapshot/agent-snapshot.ts";
import type { SyncEvent } from "../../src/types/agent-events.ts";
import { tempDir } from "../agent/support/agent-process.ts";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";

// Real agent processes and daemons on a machine shared with other work.
setDefaultTimeout(60_000);

const llm = useMockLlmServer({ clearRequestsBeforeEach: true });
const startDaemon = useDaemonHarnesses(llm);

async function sdkClient(socketPath: string): Promise<DaemonClient> {
  return connectDaemon({ socketPath });
}

describe("daemon client", () => {
  test("creates an agent, runs a turn, lists it; its state is what a fresh attach syncs", async () => {
    const h = await startDaemon();
    const client = await sdkClient(h.socketPath);
    const agent = await client.createAgent({ cwd: h.cwd, model: "mock/chat", name: "worker" });
    llm().enqueue({ steps: [{ text: "hello from the daemon", chunks: 3 }], usage: { input: 3, output: 4 } });
    const { text, usage } = await agent.run("say hello");
    expect(text).toBe("hello from the daemon");
    expect(usage.output).toBe(4);
    await agent.listModes(); // an answer after every event the turn caused

    const other = await h.unixClient();
    const from = other.messages.length;
    await other.ok({ type: "agent.attach", agent_id: agent.id, role: "observer" });
    const sync = (await other.waitAgent(agent.id!, "sync", from)) as unknown as SyncEvent;
    expect(agent.state).toEqual(snapshotFromSync(sync));

    const listed = await client.listAgents();
    expect(listed.map((a) => [a.agent_id, a.name])).toContainEqual([agent.id, "worker"]);
    client.close();
  });

  test("no daemon, or one that hangs up before its hello: connect fails at once, saying so", async () => {
    const dir = tempDir("nodaemon");
    const missing = await connectDaemon({ socketPath: join(dir, "daemon.sock") }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: "NOT_FOUND" });
    expect((missing as ShardError).message).toContain("shard daemon");

    const rude = Bun.listen({
      unix: join(dir, "rude.sock"),
      socket: {
        open(socket) {
          socket.end();
        },
        data() {},
      },
    });
    const hungUp = await connectDaemon({ socketPath: join(dir, "rude.sock") }).catch((e: unknown) => e);
    rude.stop(true);
    expect(hungUp).toMatchObject({ code: "NOT_ATTACHED" });
    expect((hungUp as ShardError).message).toContain("before its hello");
  });

  test("a request nobody answers fails with TIMEOUT after requestTimeoutMs", async () => {
    const path = join(tempDir("silent"), "silent.sock");
    const hello = '{"type":"hello","protocol_version":"0.1.0","server_version":"x","capabilities":[]}\n';
    const silent = Bun.listen({
      unix: path,
      socket: {
        open(socket) {
          socket.write(hello); // then never answers anything
        },
        data() {},
      },
    });
    const client = await connectDaemon({ socketPath: path, requestTimeoutMs: 50, reconnect: false });
    const failure = await client.listAgents().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ShardError);
    expect(failure).toMatchObject({ code: "TIMEOUT" });
    expect((failure as ShardError).message).toContain("agent.list");
    client.close();
    silent.stop(true);
  });

  test("a per-agent failure is a ShardError with the daemon's code", async () => {
    const h = await startDaemon();
    const client = await sdkClient(h.socketPath);
    const missing = await client.attach("agent-does-not-exist").catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ShardError);
    expect((missing as ShardError).code).toBe("NOT_FOUND");
    client.close();
  });

  test("onPermission answers bash from code: allowed commands run", async () => {
    const h = await startDaemon();
    const client = await sdkClient(h.socketPath);
    const agent = await client.createAgent({ cwd: h.cwd, model: "mock/chat" });
    const asked: string[] = [];
    agent.onPermission((request) => {
      asked.push(request.tool_name);
      return "allow";
    });
    llm().enqueue(
      { steps: [{ tool_call: { name: "bash", args: { command: "echo approved-by-code" } } }] },
      { steps: [{ text: "ran it" }] },
    );
    const turn = await agent.prompt("run echo");
    const results: string[] = [];
    for await (const e of turn) if (e.type === "tool_result") results.push(JSON.stringify(e.content));
    expect(asked).toEqual(["bash"]);
    expect(results.join("")).toContain("approved-by-code");
    expect((await turn.done).text).toBe("ran it");
    client.close();
  });

  test("a handler still deciding is told, through its signal, that another client answered first", async () => {
    const h = await startDaemon();
    const client = await sdkClient(h.socketPath);
    const agent = await client.createAgent({ cwd: h.cwd, model: "mock/chat" });
    const human = await h.unixClient();
    await human.ok({ type: "agent.attach", agent_id: agent.id, role: "interactive" });

    let release!: () => void;
    const slowDecision = new Promise<void>((resolve) => {
      release = resolve;
    });
    let toldNow!: (reason: unknown) => void;
    const toldReason = new Promise<unknown>((resolve) => {
      toldNow = resolve;
    });
    agent.onPermission(async (_request, { signal }) => {
      const aborted = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
      await Promise.race([slowDecision, aborted]);
      toldNow(signal.aborted ? signal.reason : "not told");
      return "allow" as const;
    });
    llm().enqueue(
      { steps: [{ tool_call: { name: "bash", args: { command: "echo must-not-run" } } }] },
      { steps: [{ text: "ok" }] },
    );
    const from = human.messages.length;
    const turn = await agent.prompt("try it");
    const ask = await human.waitAgent(agent.id!, "permission_request", from);
    human.send({
      type: "permission_response",
      agent_id: agent.id,
      request_id: ask.request_id,
      decision: "deny",
    });
    const result = await turn.done;
    const told = await toldReason;
    release();
    expect(told).toBeInstanceOf(ResolvedElsewhere);
    const resolved = (told as ResolvedElsewhere).resolved;
    expect(resolved?.type === "permission_resolved" && resolved.decision).toBe("deny");
    const toolResult = result.messages.flatMap((m) => m.content).find((b) => b.type === "tool_result");
    expect(toolResult?.type === "tool_result" && toolResult.is_error).toBe(true);
    expect(agent.state.pending_requests).toEqual([]);
    client.close();
  });

  test("sessions: list the daemon's sessions and open one as an attached agent", async () => {
    const h = await startDaemon();
    const client = await sdkClient(h.socketPath);
    const agent = await client.createAgent({ cwd: h.cwd, model: "mock/chat" });
    llm().enqueue({ steps: [{ text: "noted" }] });
    await agent.run("a session worth finding");
    const sessions = await client.listSessions(h.cwd);
    const mine = sessions.find((s) => s.session_id === agent.state.session_id);
    expect(mine?.title).toContain("a session worth finding");
    const reopened = await client.openSession(mine!.session_id);
    expect(reopened).toBe(agent); // the same durable agent, attached once
    client.close();
  });

  test("another client's abort drops this client's queued follow-up: its turn ends aborted instead of hanging", async () => {
    const h = await startDaemon();
    const client = await sdkClient(h.socketPath);
    const agent = await client.createAgent({ cwd: h.cwd, model: "mock/chat" });
    llm().enqueue({ steps: [{ text: "working" }, { hold: "held-by-other" }, { text: "never" }] });
    const turn = await agent.prompt("a long one");
    await llm().waitForHold("held-by-other");
    const queued = await turn.followUp("queued by the SDK");
    const other = await h.unixClient();
    await other.ok({ type: "agent.attach", agent_id: agent.id });
    const aborted = await other.ok({ type: "abort", agent_id: agent.id });
    expect(aborted).toEqual({ cleared_queued: 1 });
    expect(await queued.done).toMatchObject({ aborted: true, turn_id: undefined, messages: [] });
    expect(await turn.done).toMatchObject({ aborted: true, end_reason: "aborted" });
    llm().release("held-by-other");
    client.close();
  });
});
