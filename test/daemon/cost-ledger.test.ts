/**
 * The cost ledger's writes: a call's line is written once the task that reported it has ended
 * (after the clients were sent its events), every line of that task in one write; whatever
 * reads the ledger, and the daemon's stop, write what waits first.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { CostLedger, usageDir } from "../../src/daemon/usage/cost-ledger.ts";
import type { LedgerEntry } from "../../src/types/usage.ts";
import { makeTempDir } from "../support/temp-dirs.ts";

const call = (agent: string): LedgerEntry => ({
  ts: Date.UTC(2026, 11, 3, 12),
  agent_id: agent,
  model: "mock/chat",
  workspace: "/w",
  input: 10,
  output: 5,
  cost_usd: 0.01,
});
const nextTask = () => new Promise<void>((resolve) => setImmediate(resolve));
const lines = (ledger: CostLedger) =>
  existsSync(ledger.path) ? readFileSync(ledger.path, "utf8").split("\n").filter(Boolean).length : 0;

test("the calls of one task are written together at its end", async () => {
  const ledger = new CostLedger(makeTempDir("ledger-"));
  ledger.append(call("agent_a"));
  ledger.append(call("agent_b"));
  expect(lines(ledger)).toBe(0);
  await nextTask();
  expect(lines(ledger)).toBe(2);
  ledger.append(call("agent_c"));
  await nextTask();
  expect(lines(ledger)).toBe(3);
  ledger.close();
});

test("a read, a compaction's reopen and close write what waits first", () => {
  const ledger = new CostLedger(makeTempDir("ledger-"));
  ledger.append(call("agent_a"));
  expect(ledger.entries().map((e) => e.agent_id)).toEqual(["agent_a"]);
  ledger.append(call("agent_b"));
  ledger.reopen();
  expect(lines(ledger)).toBe(2);
  ledger.append(call("agent_c"));
  ledger.close();
  expect(lines(ledger)).toBe(3);
});

test("a write that fails after append returned is reported, and the ledger carries on", async () => {
  const home = makeTempDir("ledger-");
  const reported: string[] = [];
  const ledger = new CostLedger(home, (message) => reported.push(message));
  ledger.append(call("agent_a"));
  await nextTask();
  // The usage folder replaced by a file: the next write cannot open the ledger.
  ledger.reopen();
  rmSync(usageDir(home), { recursive: true });
  await Bun.write(usageDir(home), "not a folder");
  ledger.append(call("agent_b"));
  await nextTask();
  expect(reported).toHaveLength(1);
  expect(reported[0]).toContain(`cost ledger: could not write ${join(usageDir(home), "ledger.jsonl")}`);
  rmSync(usageDir(home));
  ledger.append(call("agent_c"));
  await nextTask();
  expect(ledger.entries().map((e) => e.agent_id)).toEqual(["agent_c"]);
  ledger.close();
});
