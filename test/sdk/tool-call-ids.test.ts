/**
 * A model server that repeats its tool-call ids, seen through the SDK on a real daemon: the
 * turn's events, the agent's state (messages and per-call records) and a fresh attach's
 * `sync` keep the two calls apart, so a denied call never shows an earlier call's output.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { connectDaemon } from "../../sdk/src/daemon-client.ts";
import type { AgentStreamEvent } from "../../sdk/src/stream-events.ts";
import { snapshotFromSync } from "../../src/snapshot/agent-snapshot.ts";
import type { SyncEvent } from "../../src/types/agent-events.ts";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { REPEATED_TOOL_CALL_ID, repeatedToolIdReplies } from "../support/mock-llm/repeated-tool-ids.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";

// Real agent processes and a daemon on a machine shared with other work.
setDefaultTimeout(60_000);

const llm = useMockLlmServer({ clearRequestsBeforeEach: true });
const startDaemon = useDaemonHarnesses(llm);

describe("SDK records when the server repeats its tool-call ids", () => {
  test("events, state records and a fresh sync hold two calls, each with its own outcome", async () => {
    const h = await startDaemon();
    const client = await connectDaemon({ socketPath: h.socketPath });
    const agent = await client.createAgent({ cwd: h.cwd, model: "mock/chat" });
    agent.onPermission((request) =>
      JSON.stringify(request.input).includes("rm -rf") ? ("deny" as const) : ("allow" as const),
    );
    llm().enqueue(...repeatedToolIdReplies());
    const turn = await agent.prompt("tidy up");
    const seen: AgentStreamEvent[] = [];
    for await (const event of turn) seen.push(event);
    const done = await turn.done;
    expect(done.text).toBe("done");

    const results = seen.flatMap((e) => (e.type === "tool_result" ? [e] : []));
    expect(results).toHaveLength(2);
    const [listed = "", removed = ""] = results.map((e) => e.tool_call_id);
    expect(listed).not.toBe(removed);
    expect([listed, removed]).not.toContain(REPEATED_TOOL_CALL_ID);
    const outputs = seen.flatMap((e) => (e.type === "tool_output" ? [e.tool_call_id] : []));
    expect(new Set(outputs)).toEqual(new Set([listed]));

    // The per-call records: the allowed call ran and printed; the denied one has nothing of it.
    const records = agent.state.tool_calls ?? [];
    expect(records.map((r) => r.tool_call_id)).toEqual([listed, removed]);
    expect(records[0]).toMatchObject({ name: "bash", exit_code: 0 });
    expect(records[1]?.name).toBeUndefined();
    expect(records[1]?.exit_code).toBeUndefined();
    const resultText = (id: string) =>
      JSON.stringify(
        agent.state.live_window.messages
          .flatMap((m) => m.content)
          .find((b) => b.type === "tool_result" && b.tool_call_id === id),
      );
    expect(resultText(listed)).toContain("listed");
    expect(resultText(removed)).toContain("permission denied");
    expect(resultText(removed)).not.toContain("listed");

    // A client attaching now gets the same two calls in its sync.
    await agent.listModes(); // an answer after every event the turn caused
    const other = await h.unixClient();
    const from = other.messages.length;
    await other.ok({ type: "agent.attach", agent_id: agent.id, role: "observer" });
    const sync = (await other.waitAgent(agent.id!, "sync", from)) as unknown as SyncEvent;
    expect(sync.tool_calls?.map((r) => r.tool_call_id)).toEqual([listed, removed]);
    expect(agent.state).toEqual(snapshotFromSync(sync));
    client.close();
  });
});
