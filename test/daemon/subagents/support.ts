/** Shared steps of the subagent tests: a parent agent on a real daemon and its job's runs. */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { mockHome } from "../../agent/support/agent-process.ts";
import type { MockLlmServer } from "../../support/mock-llm/types.ts";
import type { DaemonClient, Msg } from "../support/daemon-client.ts";
import { type DaemonHarness, DaemonProcess } from "../support/daemon-harness.ts";

export async function parentAgent(
  harness: DaemonHarness,
  client: DaemonClient,
  extra: object = {},
): Promise<string> {
  return harness.createAgent(client, { name: "parent", ...extra });
}

/** Waits for the `subagent_run_changed` that puts this run in `state`. */
export function runState(client: DaemonClient, runId: string, state: string, from = 0): Promise<Msg> {
  return client.waitFor(
    (m) => m.type === "subagent_run_changed" && m.run_id === runId && m.state === state,
    from,
    30_000,
  );
}

/**
 * One single-task job whose run is held mid-turn: the mock LLM must already have a script for
 * `task` that starts with `{ hold }`. Resolves once the run is `active` and the hold is reached.
 */
export async function heldRun(
  llm: () => MockLlmServer,
  client: DaemonClient,
  parent: string,
  task: string,
  hold: string,
): Promise<Msg> {
  const created = await client.ok({ type: "subagent.create", parent_agent_id: parent, name: hold, task });
  const run: Msg = created.runs[0];
  await llm().waitForHold(hold);
  await runState(client, run.run_id, "active");
  return run;
}

/** `subagent.relaunch` of `target` with `task`, then waits for that run: its snapshot. */
export async function relaunchAndWait(
  client: DaemonClient,
  parent: string,
  target: string,
  task: string,
): Promise<Msg> {
  const again = await client.ok({ type: "subagent.relaunch", parent_agent_id: parent, target, task });
  const waited = await client.ok({ type: "subagent.wait", parent_agent_id: parent, handles: [again.run_id] });
  return waited.runs[0];
}

export function jobFiles(home: string): string[] {
  try {
    return readdirSync(join(home, "jobs")).filter((f) => f.endsWith(".json"));
  } catch {
    return [];
  }
}

/**
 * A real daemon whose parent agent has one run held mid-turn on `task`, then killed -9 (its
 * runtimes may live on: the caller decides). The mock LLM is given the held script here.
 */
export async function killedMidRun(
  llm: () => MockLlmServer,
  processes: DaemonProcess[],
  task: string,
  hold: string,
): Promise<{ home: string; parent: string; created: Msg; run: Msg }> {
  const home = mockHome(llm().url);
  const first = new DaemonProcess(home);
  processes.push(first);
  await first.url();
  const a = await first.client();
  const parent = (await a.ok({ type: "agent.create", cwd: home, model: "mock/chat" })).agent_id;
  llm().enqueue({ when: task, steps: [{ hold, timeout_ms: 60_000 }, { text: "never" }] });
  const created = await a.ok({ type: "subagent.create", parent_agent_id: parent, name: hold, task });
  const run: Msg = created.runs[0];
  await llm().waitForHold(hold);
  await runState(a, run.run_id, "active");
  first.kill();
  await first.exited;
  a.close();
  return { home, parent, created, run };
}
