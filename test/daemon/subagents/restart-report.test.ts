/**
 * A daemon killed -9 mid-run (its runtimes' groups too): the next start recovers the jobs by
 * itself — before and without any `subagent.*` command the records say `interrupted` — and
 * the owning parent gets its completion report, so a parent waiting for its runs never waits
 * forever.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { useMockLlmServer } from "../../support/mock-llm/use-mock-llm-server.ts";
import { DaemonProcess, useDaemonProcesses } from "../support/daemon-harness.ts";
import { jobFiles, killedMidRun } from "./support.ts";

setDefaultTimeout(90_000);

const llm = useMockLlmServer();
const processes = useDaemonProcesses();

/** SIGKILL to every runtime process group the daemon recorded. */
function killRuntimeGroups(home: string): void {
  const dir = join(home, "run", "pgroups");
  for (const name of readdirSync(dir)) {
    const pgid = Number(name.replace(/\.json$/, ""));
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

describe("daemon restart with a run in flight", () => {
  test("the start interrupts the run and reports it to the parent, with no subagent command", async () => {
    const { home, parent, run } = await killedMidRun(llm, processes, "TASK-RR1", "rr1");
    killRuntimeGroups(home);

    // The parent's report turn is held: reaching the hold is the barrier that the report came.
    llm().enqueue({
      when: "<subagent_report",
      steps: [{ hold: "report" }, { text: "noted the interruption" }],
    });
    const second = new DaemonProcess(home);
    processes.push(second);
    await second.url();
    // Settled before the daemon listens, so before any client's first command: the run is
    // interrupted on record and no lease holds its child any more.
    const [file] = jobFiles(home);
    const record = JSON.parse(readFileSync(join(home, "jobs", file ?? ""), "utf8"));
    expect(record.runs[0]).toMatchObject({ run_id: run.run_id, state: "interrupted" });
    await llm().waitForHold("report");

    const report = llm().requests.find((r) => JSON.stringify(r.body).includes("<subagent_report job_id="));
    const reportText = JSON.stringify(report?.body.messages);
    expect(reportText).toContain(`run_id=\\"${run.run_id}\\"`);
    expect(reportText).toContain('state=\\"interrupted\\"');

    // The report is in the parent's session: an attach shows it.
    const b = await second.client();
    await b.ok({ type: "agent.attach", agent_id: parent });
    const from = 0;
    llm().release("report");
    await b.waitAgent(parent, "turn_end", from);
    const sync = await b.waitAgent(parent, "sync", from);
    expect(JSON.stringify(sync.live_window)).toContain(`run_id=\\"${run.run_id}\\"`);
    // Taken by the parent: the record no longer asks for it at the next start.
    const after = JSON.parse(readFileSync(join(home, "jobs", file ?? ""), "utf8"));
    expect(after.runs[0].report_pending).toBeUndefined();
    b.close();
  });
});
