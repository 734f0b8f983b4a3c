/** Shared steps of the subagent tests: a parent agent on a real daemon and its job's runs. */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { DaemonClient, Msg } from "../support/daemon-client.ts";
import type { DaemonHarness } from "../support/daemon-harness.ts";

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

export function jobFiles(home: string): string[] {
  try {
    return readdirSync(join(home, "jobs")).filter((f) => f.endsWith(".json"));
  } catch {
    return [];
  }
}
