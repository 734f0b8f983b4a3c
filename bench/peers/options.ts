/** Command-line options of bench/peers/run.ts (pure). */
import { resolve } from "node:path";

export const TOOL_IDS = ["shard-bin", "shard-src", "shard-daemon", "shard-sdk", "pi", "opencode"] as const;
export type ToolId = (typeof TOOL_IDS)[number];

export interface BenchOptions {
  runs: number;
  deltas: number[];
  only: Set<ToolId>;
  floors: boolean;
  write: boolean;
  /** Scales every turn's deadline (slow, loaded machine). */
  timeoutScale: number;
  binary: string | undefined;
}

export const USAGE = `Usage: bun bench/peers/run.ts [--runs 5] [--quick] [--only ${TOOL_IDS.join(",")}]
                               [--deltas 1000,10000,50000] [--no-write] [--timeout-scale 1] [--binary PATH]
  --quick     2 repetitions of 1,000 and 10,000 deltas; docs are not written
  --only      some of the tools (floors are always measured)
  --no-write  print the tables only (default: rewrite docs/benchmarks.md's section and the plot)
  --binary    an already built \`shard\` binary (default: build one with build:binary)`;

export function parseOptions(argv: readonly string[]): BenchOptions {
  const opts: BenchOptions = {
    runs: 5,
    deltas: [1_000, 10_000, 50_000],
    only: new Set(TOOL_IDS),
    floors: true,
    write: true,
    timeoutScale: 1,
    binary: undefined,
  };
  const value = (i: number, flag: string) => {
    const v = argv[i + 1];
    if (v === undefined || v.startsWith("--")) throw new Error(`${flag} needs a value\n${USAGE}`);
    return v;
  };
  const positive = (text: string, flag: string) => {
    const n = Number(text);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag}: expected a positive number, got "${text}"`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    if (flag === "--quick") {
      opts.runs = 2;
      opts.deltas = [1_000, 10_000];
      opts.write = false;
    } else if (flag === "--runs") opts.runs = Math.round(positive(value(i++, flag), flag));
    else if (flag === "--deltas")
      opts.deltas = value(i++, flag)
        .split(",")
        .map((d) => Math.round(positive(d, flag)));
    else if (flag === "--timeout-scale") opts.timeoutScale = positive(value(i++, flag), flag);
    // Resolved here: the tools run in their own directories.
    else if (flag === "--binary") opts.binary = resolve(value(i++, flag));
    else if (flag === "--no-write") opts.write = false;
    else if (flag === "--only") {
      const ids = value(i++, flag).split(",");
      const unknown = ids.filter((id) => !(TOOL_IDS as readonly string[]).includes(id));
      if (unknown.length > 0)
        throw new Error(`--only: unknown tool ${unknown.join(", ")} (one of ${TOOL_IDS.join(", ")})`);
      opts.only = new Set(ids as ToolId[]);
    } else throw new Error(`unknown option ${flag}\n${USAGE}`);
  }
  opts.deltas.sort((a, b) => a - b);
  return opts;
}

/** The N the peak-RSS column is taken at: 10,000 if measured, else the largest below it. */
export function peakAt(deltas: readonly number[]): number {
  return deltas.includes(10_000)
    ? 10_000
    : (deltas.filter((d) => d <= 10_000).pop() ?? (deltas[0] as number));
}
