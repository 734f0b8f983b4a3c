/**
 * `shard usage` without a daemon (docs/usage.md): it reads $SHARD_HOME/usage/ itself, groups as
 * asked, and shows an unpriced model's cost as unknown, never $0. A running daemon's answer is
 * covered by test/daemon/usage.test.ts (daemon.usage) and the SDK test.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../agent/support/agent-process.ts";
import { shard } from "./support/shard-cli.ts";

setDefaultTimeout(60_000);

test("groups the ledger by agent and by model; an unpriced model's cost is unknown", async () => {
  const home = tempDir("usage-home");
  mkdirSync(join(home, "usage"), { recursive: true });
  const now = Date.now();
  const entry = (agent: string, model: string, cost: number | null) =>
    JSON.stringify({
      ts: now - 60_000,
      agent_id: agent,
      model,
      workspace: "/w",
      input: 100,
      output: 10,
      cost_usd: cost,
    });
  writeFileSync(
    join(home, "usage", "ledger.jsonl"),
    `${[entry("agent-a", "mock/chat", 1.25), entry("agent-a", "mock/chat", 0.5), entry("agent-b", "local/free", null)].join("\n")}\n`,
  );
  const env = { SHARD_HOME: home };
  const byAgent = await shard(["usage"], env);
  expect(byAgent.code).toBe(0);
  const lines = byAgent.stdout.trim().split("\n");
  expect(lines[0]).toMatch(/^KEY\s+CALLS\s+INPUT\s+OUTPUT\s+COST$/);
  expect(lines[1]).toMatch(/^agent-a\s+2\s+200\s+20\s+\$1\.75$/);
  expect(lines[2]).toMatch(/^agent-b\s+1\s+100\s+10\s+unknown$/);
  expect(lines[3]).toMatch(/^total\s+3\s+300\s+30\s+\$1\.75 \+ unknown$/);

  const json = await shard(["usage", "--by", "model", "--since", "2h", "--json"], env);
  const result = JSON.parse(json.stdout);
  expect(result.rows).toEqual([
    { key: "mock/chat", calls: 2, input: 200, output: 20, cost_usd: 1.75, unpriced_calls: 0 },
    { key: "local/free", calls: 1, input: 100, output: 10, cost_usd: null, unpriced_calls: 1 },
  ]);

  const bad = await shard(["usage", "--by", "colour"], env);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--by: "colour" is not a grouping');
});
