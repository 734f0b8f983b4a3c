/**
 * Checkpoint retention from config.json (`checkpoints.keep`, `checkpoints.max_mb`): the loader's
 * defaults and warnings, and a real `shard agent` that keeps only the newest checkpoints it is
 * told to.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_RETENTION } from "../../src/checkpoints/retention.ts";
import { loadCheckpointRetention } from "../../src/checkpoints/retention-config.ts";
import { tempDir } from "../agent/support/agent-process.ts";
import { useAgentHarness } from "../agent/support/harness.ts";
import { makeRepo } from "../daemon/workspaces/git-repo.ts";
import { allowedTurn } from "./support/allowed-turn.ts";

setDefaultTimeout(90_000);

const { llm, spawn } = useAgentHarness();

function homeWith(config: unknown): string {
  const home = tempDir("retention-home");
  writeFileSync(join(home, "config.json"), JSON.stringify(config));
  return home;
}

describe("checkpoint retention settings", () => {
  test("absent file or key: the defaults, no warning", () => {
    expect(loadCheckpointRetention(tempDir("empty-home"))).toEqual({
      retention: DEFAULT_RETENTION,
      warnings: [],
    });
    expect(loadCheckpointRetention(homeWith({ mcp: {} }))).toEqual({
      retention: DEFAULT_RETENTION,
      warnings: [],
    });
  });

  test("keep and max_mb are read; bad values keep their default and say so", () => {
    expect(loadCheckpointRetention(homeWith({ checkpoints: { keep: 5, max_mb: 20 } })).retention).toEqual({
      maxCheckpoints: 5,
      maxBytes: 20 * 1024 * 1024,
    });
    const bad = loadCheckpointRetention(homeWith({ checkpoints: { keep: 0, max_mb: "big" } }));
    expect(bad.retention).toEqual(DEFAULT_RETENTION);
    expect(bad.warnings).toHaveLength(2);
    expect(bad.warnings[0]).toContain("checkpoints.keep must be an integer");
    expect(bad.warnings[1]).toContain("checkpoints.max_mb must be an integer");
    expect(loadCheckpointRetention(homeWith({ checkpoints: [] })).warnings[0]).toContain(
      '"checkpoints" must be an object',
    );
  });

  test("an agent told to keep 2 lists only its 2 newest turns' checkpoints", async () => {
    const repo = makeRepo();
    const agent = await spawn({ cwd: repo });
    writeFileSync(join(agent.home, "config.json"), JSON.stringify({ checkpoints: { keep: 2 } }));
    for (const name of ["one.txt", "two.txt", "three.txt"]) {
      llm().enqueue({
        steps: [{ tool_call: { name: "write", args: { path: name, content: `${name}\n` } } }],
      });
      const events = await allowedTurn(agent, `write ${name}`);
      expect(events.some((e) => e.type === "error")).toBe(false);
    }
    const turnIds = agent.events.filter((e) => e.type === "turn_start").map((e) => e.turn_id);
    const listed = await agent.request({ type: "list_checkpoints" });
    expect(listed.success).toBe(true);
    expect(listed.data.checkpoints.map((c: { turn_id: string }) => c.turn_id)).toEqual([
      turnIds[2],
      turnIds[1],
    ]);
  });
});
