/**
 * A parent waiting for its runs never waits forever (docs/subagents.md, "Durability and
 * restarts"): a completion report whose parent could not be started is kept, and goes as soon
 * as the parent's runtime is next ready, with no daemon restart. The parent's start is refused
 * by a wrapper around the real `shard agent` while a file names the parent's session.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SHARD_MAIN, tempDir } from "../../agent/support/agent-process.ts";
import { useMockLlmServer } from "../../support/mock-llm/use-mock-llm-server.ts";
import { useDaemonHarnesses } from "../support/daemon-harness.ts";
import { jobFiles, parentAgent, runState } from "./support.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);

/** `shard agent`, except that a generation resuming a session named by `<control>/refuse-<id>` exits 1. */
const REFUSING_RUNTIME = `control=$0
previous=
for arg in "$@"; do
  if [ "$previous" = --session ] && [ -e "$control/refuse-$arg" ]; then
    echo "start refused by the test" >&2
    exit 1
  fi
  previous=$arg
done
exec "$@"`;

/** Waits until daemon.log has a line matching `pattern` (the daemon writes it synchronously). */
async function logLine(home: string, pattern: RegExp): Promise<string> {
  const path = join(home, "logs", "daemon.log");
  const deadline = Date.now() + 30_000;
  for (;;) {
    const text = existsSync(path) ? readFileSync(path, "utf8") : "";
    const line = text.split("\n").find((l) => pattern.test(l));
    if (line !== undefined) return line;
    if (Date.now() > deadline) throw new Error(`daemon.log has no line matching ${pattern}:\n${text}`);
    await Bun.sleep(20);
  }
}

test("a report the parent could not start for goes once the parent's runtime is ready again", async () => {
  const control = tempDir("refuse");
  const harness = await startHarness({
    shardCommand: ["sh", "-c", REFUSING_RUNTIME, control, process.execPath, SHARD_MAIN],
  });
  const a = await harness.unixClient();
  const parent = await parentAgent(harness, a);
  const manifest = JSON.parse(readFileSync(join(harness.home, "agents", parent, "manifest.json"), "utf8"));
  expect(manifest.session_id).toBeString();

  // The parent is stopped, and its next start will be refused.
  let from = a.messages.length;
  await a.ok({ type: "agent.terminate", agent_id: parent });
  await a.waitFor(
    (m) => m.type === "agent_status_changed" && m.agent_id === parent && m.runtime_state === "stopped",
    from,
  );
  const refuse = join(control, `refuse-${manifest.session_id}`);
  writeFileSync(refuse, "");

  llm().enqueue({ when: "TASK-REDELIVER", steps: [{ text: "child result" }] });
  const created = await a.ok({
    type: "subagent.create",
    parent_agent_id: parent,
    name: "redeliver",
    task: "TASK-REDELIVER",
  });
  const run = created.runs[0];
  await runState(a, run.run_id, "completed");
  // The report could not be given: the parent did not start.
  await logLine(
    harness.home,
    new RegExp(`completion report of run ${run.run_id}: parent ${parent} did not start`),
  );
  const [file] = jobFiles(harness.home);
  const pending = JSON.parse(readFileSync(join(harness.home, "jobs", file ?? ""), "utf8"));
  expect(pending.runs[0].report_pending).toBe(true);

  // The parent starts again (an attach): the report reaches it without a restart.
  rmSync(refuse);
  llm().enqueue({ when: "<subagent_report", steps: [{ hold: "report" }, { text: "noted" }] });
  from = a.messages.length;
  await a.ok({ type: "agent.attach", agent_id: parent });
  await llm().waitForHold("report");
  llm().release("report");
  await a.waitAgent(parent, "turn_end", from);
  const report = llm().requests.find((r) => JSON.stringify(r.body).includes("<subagent_report job_id="));
  expect(JSON.stringify(report?.body.messages)).toContain(`run_id=\\"${run.run_id}\\"`);
  const taken = JSON.parse(readFileSync(join(harness.home, "jobs", file ?? ""), "utf8"));
  expect(taken.runs[0].report_pending).toBeUndefined();
});
