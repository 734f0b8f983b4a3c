import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { parseOptions, peakAt } from "../../bench/peers/options.ts";
import {
  cell,
  fmtMs,
  goals,
  ratiosTable,
  renderSection,
  replaceSection,
  resultsTable,
  SECTION_END,
  SECTION_START,
} from "../../bench/peers/report.ts";
import { emptyRuns, type RunResult, record, turnKey } from "../../bench/peers/results.ts";
import { buildCommand } from "../../bench/peers/shard-binary.ts";
import { summarize } from "../../bench/peers/stats.ts";

describe("summarize", () => {
  test("median of an odd and an even count, min and max", () => {
    expect(summarize([5, 1, 3])).toEqual({ median: 3, min: 1, max: 5, count: 3 });
    expect(summarize([4, 1, 3, 2])).toEqual({ median: 2.5, min: 1, max: 4, count: 4 });
    expect(summarize([])).toBeUndefined();
  });
});

const runs = (values: number[], errors: string[] = []) => ({ values, errors });

function sample(): RunResult {
  const tool = (
    id: string,
    label: string,
    ready: number,
    t10k: number[],
    t50k: number[],
    errors50k: string[] = [],
  ) => ({
    id,
    label,
    command: `${id} --mode x`,
    metrics: {
      ready: runs([ready, ready + 2, ready - 1]),
      idleRss: runs([40, 41, 42]),
      [turnKey(10_000)]: runs(t10k),
      [turnKey(50_000)]: runs(t50k, errors50k),
      toolTurn: runs([6, 7, 8]),
      peakRss: runs([80, 83, 90]),
    },
  });
  return {
    command: "bun bench/peers/run.ts --runs 3",
    runs: 3,
    deltas: [10_000, 50_000],
    peakAt: 10_000,
    machine: {
      date: "2026-12-01 15:00 UTC",
      nproc: 2,
      loadBefore: [1, 1, 1],
      loadAfter: [2, 2, 2],
      bun: "1.4.5",
      node: "v20",
      memGiB: 24,
    },
    tools: [
      tool("shard-bin", "Shard compiled", 20, [60, 61, 70], [240, 242, 250]),
      tool("shard-daemon", "Shard compiled, via daemon", 35, [80, 82, 90], [300, 310, 320]),
      tool(
        "pi",
        "pi 0.73.1",
        600,
        [1500, 1535, 1600],
        [],
        ["50,000-delta turn: exited with code 134: FATAL ERROR: heap out of memory", "x", "y"],
      ),
      tool("opencode", "opencode 1.18.33", 1700, [1000, 1048, 1100], [3100, 3193, 3300]),
    ],
    floors: {
      bunStart: runs([6, 6.2, 7]),
      bunEval: runs([12, 13, 14]),
      bunRss: runs([22, 22, 23]),
      compiledStart: runs([9, 10, 11]),
      compiledRss: runs([33, 34, 35]),
      mock: { 10000: runs([13, 14, 12]), 50000: runs([50, 52, 49]) },
      jsonParse: { 10000: runs([4, 4, 5]), 50000: runs([20, 21, 22]) },
    },
    durationS: 300,
  };
}

describe("the tables", () => {
  test("a cell shows the median in bold and the range; failures say how many and point at the error", () => {
    expect(cell(runs([61, 58, 70]), fmtMs)).toBe("**61 ms** (58–70 ms)");
    expect(cell(runs([], ["boom", "boom"]), fmtMs)).toBe("crashed 2 of 2 [^e1]");
    expect(cell(runs([10, 12], ["boom"]), fmtMs)).toBe("**11 ms** (10–12 ms); crashed 1 of 3 [^e1]");
    expect(cell(undefined, fmtMs)).toBe("—");
  });

  test("every tool has a row, plus the floors", () => {
    const table = resultsTable(sample());
    expect(table).toContain("| Shard compiled | **20 ms** (19–22 ms) |");
    expect(table).toContain("| pi 0.73.1 |");
    expect(table).toContain("crashed 3 of 3 [^e1]");
    expect(table).toContain("mock alone **13 ms** (12–14 ms)");
    expect(table).toContain("`bun -e ''` **6.2 ms** (6.0–7.0 ms)");
    expect(table).toContain("compiled one-liner **10 ms** (9.0–11 ms)");
    expect(table).toContain("idle Bun **22 MB** (22–23 MB); compiled one-liner **34 MB** (33–35 MB)");
  });

  test("ratios: against the best peer that never crashed on that measure, and against the floor", () => {
    const ratios = ratiosTable(sample());
    // 10k: pi 1,535 vs opencode 1,048 → opencode is best; 61 / 1,048.
    expect(ratios).toContain(
      "| 10k-delta turn | 61 ms | 1,048 ms (opencode 1.18.33) | 0.06× | 13 ms (mock alone) | 4.69× |",
    );
    // 50k: pi crashed every run, so opencode.
    expect(ratios).toContain(
      "| 50k-delta turn | 242 ms | 3,193 ms (opencode 1.18.33) | 0.08× | 50 ms (mock alone) | 4.84× |",
    );
    expect(ratios).toContain(
      "| start → ready | 20 ms | 600 ms (pi 0.73.1) | 0.03× | 6.2 ms (bare Bun start) | 3.23× |",
    );
  });

  test("goals: each met or not, from this run's figures", () => {
    const byGoal = Object.fromEntries(goals(sample()).map((g) => [g.goal, g.met]));
    expect(byGoal["10k-delta turn, direct (compiled) ≤ 2× mock alone"]).toBe(false);
    expect(byGoal["start → ready (compiled agent) ≤ 3× bare Bun start (`bun -e ''`)"]).toBe(false);
    expect(byGoal["start → ready (compiled agent) ≤ 3× a compiled one-line program"]).toBe(true);
    expect(byGoal["idle RSS of an agent (compiled) < 35 MB"]).toBe(false);
    const quick = sample();
    quick.tools[0]!.metrics.idleRss = runs([30]);
    quick.floors.bunStart = runs([10]);
    const met = Object.fromEntries(goals(quick).map((g) => [g.goal, g.met]));
    expect(met["idle RSS of an agent (compiled) < 35 MB"]).toBe(true);
    expect(met["start → ready (compiled agent) ≤ 3× bare Bun start (`bun -e ''`)"]).toBe(true);
  });

  test("the section carries the command, machine, versions, plot and each error once", () => {
    const section = renderSection(sample(), "benchmarks-peers.svg");
    expect(section).toContain("Command: `bun bench/peers/run.ts --runs 3`");
    expect(section).toContain("2 cores, 24 GiB, load average 1.00 1.00 1.00 before");
    expect(section).toContain("Bun 1.4.5");
    expect(section).toContain("](benchmarks-peers.svg)");
    expect(section).toContain(
      "[^e1]: 50,000-delta turn: exited with code 134: FATAL ERROR: heap out of memory",
    );
    expect(section.match(/\[\^e1\]:/g)?.length).toBe(1);
  });
});

describe("the docs section", () => {
  test("is appended with its markers the first time, then replaced in place", () => {
    const doc = "# Benchmarks\n\nintro\n";
    const once = replaceSection(doc, "## Peers", "table v1");
    expect(once).toBe(`# Benchmarks\n\nintro\n\n## Peers\n\n${SECTION_START}\ntable v1\n${SECTION_END}\n`);
    const edited = `${once}\n## Later section\n`;
    const twice = replaceSection(edited, "## Peers", "table v2");
    expect(twice).toContain("table v2");
    expect(twice).not.toContain("table v1");
    expect(twice).toContain("## Later section");
    expect(twice.match(/## Peers/g)?.length).toBe(1);
  });
});

describe("options", () => {
  test("defaults: 5 runs, 1k/10k/50k, every tool, docs written", () => {
    const o = parseOptions([]);
    expect(o.runs).toBe(5);
    expect(o.deltas).toEqual([1000, 10_000, 50_000]);
    expect(o.only.size).toBe(6);
    expect(o.write).toBe(true);
  });

  test("--quick, --only, --deltas; unknown tools and flags are refused with the usage", () => {
    const q = parseOptions(["--quick", "--only", "shard-bin,pi"]);
    expect([q.runs, q.write, [...q.only]]).toEqual([2, false, ["shard-bin", "pi"]]);
    expect(parseOptions(["--deltas", "50000,1000"]).deltas).toEqual([1000, 50_000]);
    expect(() => parseOptions(["--only", "claude"])).toThrow("unknown tool claude");
    expect(() => parseOptions(["--fast"])).toThrow("Usage:");
    expect(() => parseOptions(["--runs", "0"])).toThrow("positive");
  });

  test("a relative --binary is taken from where the bench was started (each tool runs in its own directory)", () => {
    expect(parseOptions(["--binary", "dist/shard"]).binary).toBe(join(process.cwd(), "dist/shard"));
    expect(parseOptions(["--binary", "/opt/shard"]).binary).toBe("/opt/shard");
  });

  test("the peak RSS is taken at 10k, or the largest N below it", () => {
    expect(peakAt([1000, 10_000, 50_000])).toBe(10_000);
    expect(peakAt([1000, 5000, 50_000])).toBe(5000);
    expect(peakAt([50_000])).toBe(50_000);
  });
});

test("the binary is built with the package's own build:binary, redirected", () => {
  const script = "bun build src/cli/main.ts --compile --bytecode --asset web/dist --outfile dist/shard";
  expect(buildCommand(script, "/tmp/x/shard", "/tmp/web/dist")).toEqual([
    "bun",
    "build",
    "src/cli/main.ts",
    "--compile",
    "--bytecode",
    "--asset",
    "/tmp/web/dist",
    "--outfile",
    "/tmp/x/shard",
  ]);
  expect(() => buildCommand("vite build", "/o", "/w")).toThrow("build:binary");
});

test("record keeps values and errors apart", () => {
  const metrics = {};
  record(metrics, "ready", 5);
  record(metrics, "ready", new Error("no hello"));
  expect(metrics).toEqual({ ready: { values: [5], errors: ["no hello"] } });
  expect(emptyRuns()).toEqual({ values: [], errors: [] });
});
