/**
 * Subagent jobs through the SDK: a script hands a task to a child of a parent agent, waits for
 * it, reads its final text, and sees the job in the status list; another parent's handle is a
 * ShardError with NOT_FOUND.
 */
import { describe, expect, test } from "bun:test";
import { connectDaemon } from "../../sdk/src/daemon-client.ts";
import { ShardError } from "../../sdk/src/errors.ts";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";

const llm = useMockLlmServer();
const startDaemon = useDaemonHarnesses(llm);

describe("subagents", () => {
  test("create, wait for all, status; another parent cannot see the job", async () => {
    const h = await startDaemon();
    const local = await h.unixClient();
    const parent = await h.createAgent(local, { name: "parent" });
    const other = await h.createAgent(local, { name: "other" });
    const client = await connectDaemon({ socketPath: h.socketPath });
    llm().enqueue({ when: "TASK-SDK", steps: [{ text: "the answer is 7" }] });

    const created = await client.subagents.create({
      parent_agent_id: parent,
      name: "helper",
      task: "TASK-SDK sum",
    });
    expect(created.strategy).toBe("single");
    const runId = created.runs[0]?.run_id ?? "";
    const waited = await client.subagents.wait({ parent_agent_id: parent, handles: [created.job_id] });
    expect(waited.timed_out).toBe(false);
    expect(waited.aggregate_state).toBe("completed");
    expect(waited.runs[0]).toMatchObject({
      run_id: runId,
      state: "completed",
      final_text: "the answer is 7",
    });

    const status = await client.subagents.status({ parent_agent_id: parent });
    expect(status.jobs?.map((j) => j.job_id)).toContain(created.job_id);
    expect(JSON.stringify(status)).not.toContain("TASK-SDK");

    const refused = await client.subagents
      .wait({ parent_agent_id: other, handles: [created.job_id] })
      .catch((e) => e);
    expect(refused).toBeInstanceOf(ShardError);
    expect(refused.code).toBe("NOT_FOUND");
    client.close();
  }, 60_000);
});
