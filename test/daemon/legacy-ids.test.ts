/**
 * Ids use the protocol's prefix families (docs/protocol.md §10.4, §12): `job-…`, `run-…`,
 * `agent-…`. Records written before that (`job_…`, `run_…`, `agent_…`) keep loading and stay
 * usable: the agents list, their jobs resolve as handles, a child relaunches and a parent restores.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AGENT_ID_PATTERN } from "../../src/daemon/registry/manifest.ts";
import { newId } from "../../src/support/ids.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { parentAgent, runState } from "./subagents/support.ts";
import type { Msg } from "./support/daemon-client.ts";
import { useDaemonHarnesses } from "./support/daemon-harness.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);

describe("id prefixes", () => {
  test("the protocol's families join with '-', the daemon's own ids keep '_'", () => {
    expect(newId("job")).toMatch(/^job-[A-Za-z0-9_-]{20}$/);
    expect(newId("run")).toMatch(/^run-[A-Za-z0-9_-]{20}$/);
    expect(newId("agent")).toMatch(/^agent-[A-Za-z0-9_-]{20}$/);
    expect(newId("ses")).toMatch(/^ses_/);
    const agent = AGENT_ID_PATTERN;
    expect(["agent-abc", "agent_abc"].every((id) => agent.test(id))).toBe(true);
    // Still path-safe: no separator, dot segment or other family passes.
    expect(["agent-../x", "agent/x", "agentx", "job-abc", "agent-"].some((id) => agent.test(id))).toBe(false);
  });
});

/** The `_` form an older daemon wrote of an id minted with `-`. */
const legacy = (id: string) => id.replace("-", "_");

/** Rewrites every record under `home` as an older daemon would have written it. */
function rewriteAsLegacy(home: string, ids: string[]): void {
  const rewrite = (path: string) => {
    let text = readFileSync(path, "utf8");
    for (const id of ids) text = text.replaceAll(id, legacy(id));
    writeFileSync(path, text);
  };
  for (const name of readdirSync(join(home, "agents"))) {
    rewrite(join(home, "agents", name, "manifest.json"));
    renameSync(join(home, "agents", name), join(home, "agents", legacy(name)));
  }
  for (const name of readdirSync(join(home, "jobs"))) {
    rewrite(join(home, "jobs", name));
    renameSync(join(home, "jobs", name), join(home, "jobs", legacy(name)));
  }
}

describe("records written with '_' ids", () => {
  test("load after a restart and stay usable: listed, resolved as handles, relaunched, restored", async () => {
    const first = await startHarness();
    const a = await first.unixClient();
    const parent = await parentAgent(first, a);
    expect(parent).toMatch(/^agent-/);
    llm().enqueue({ when: "TASK-OLD", steps: [{ text: "old result" }] });
    const created = await a.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      name: "old",
      task: "TASK-OLD",
    });
    const run: Msg = created.runs[0];
    await runState(a, run.run_id, "completed");
    await first.stop();
    rewriteAsLegacy(first.home, [parent, run.agent_id, created.job_id, run.run_id]);

    const again = await startHarness({ home: first.home });
    const b = await again.unixClient();
    const listed = await b.ok({ type: "agent.list" });
    expect(listed.agents.map((x: Msg) => x.agent_id).sort()).toEqual(
      [legacy(parent), legacy(run.agent_id)].sort(),
    );
    const status = await b.ok({
      type: "subagent.status",
      parent_agent_id: legacy(parent),
      targets: [legacy(created.job_id)],
    });
    expect(status.agents[0]).toMatchObject({
      agent_id: legacy(run.agent_id),
      run: { job_id: legacy(created.job_id), run_id: legacy(run.run_id), state: "completed" },
    });

    // The old child runs new work: the new job and run get '-' ids, the agent keeps its own.
    llm().enqueue({ when: "TASK-NEW", steps: [{ text: "new result" }] });
    const relaunched = await b.ok({
      type: "subagent.relaunch",
      parent_agent_id: legacy(parent),
      target: legacy(run.agent_id),
      task: "TASK-NEW",
    });
    expect(relaunched.job_id).toMatch(/^job-/);
    expect(relaunched.run_id).toMatch(/^run-/);
    expect(relaunched.agent_id).toBe(legacy(run.agent_id));
    const waited = await b.ok({
      type: "subagent.wait",
      parent_agent_id: legacy(parent),
      handles: [relaunched.run_id],
    });
    expect(waited.runs[0]).toMatchObject({ state: "completed", final_text: "new result" });
    await b.ok({ type: "agent.attach", agent_id: legacy(parent) });
  });
});
