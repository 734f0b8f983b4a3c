/**
 * Shard side by side with its peers, pi and opencode, in one run (issue 14). Installs the
 * peers at pinned versions into a cache folder, points all three tools at the project's local
 * streaming LLM server, interleaves them (A B C A B C …) over fresh processes, measures the
 * floors in the same run, and rewrites docs/benchmarks.md's "Side by side with the peers"
 * section and docs/benchmarks-peers.svg.
 *   bun bench/peers/run.ts [--runs 5] [--quick] [--only shard-bin,pi,…] [--no-write]
 */

import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { startMockLlmServer } from "../../test/support/mock-llm/server.ts";
import { benchTempDir } from "../support/bench-home.ts";
import {
  bareBun,
  buildHello,
  bunEval,
  exitMs,
  IDLE_SCRIPT,
  idleRssMb,
  jsonParseMs,
  mockAloneMs,
  turnJsonl,
} from "./floors.ts";
import { cacheRoot, workDir } from "./install.ts";
import { parseOptions, peakAt } from "./options.ts";
import { runRepetition } from "./repetition.ts";
import { renderSection, replaceSection } from "./report.ts";
import {
  emptyRuns,
  type FloorResult,
  type MetricRuns,
  type RunResult,
  type ToolResult,
  turnKey,
} from "./results.ts";
import { summarize } from "./stats.ts";
import { renderPlot, type Series } from "./svg-plot.ts";
import { drivers } from "./tool-setup.ts";

const REPO = resolve(import.meta.dir, "..", "..");
const DOC = join(REPO, "docs", "benchmarks.md");
const PLOT = join(REPO, "docs", "benchmarks-peers.svg");
const HEADING = "## Side by side with the peers (`bun bench/peers/run.ts`)";
const log = (line: string) => console.error(`[peers] ${line}`);

const opts = (() => {
  try {
    return parseOptions(Bun.argv.slice(2));
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
})();
const started = performance.now();
const loadBefore = loadavg();
const server = await startMockLlmServer({ recordRequests: false });
// The tools' working folder is not under the system temp dir: Bun lists every parent of its
// cwd when it starts, and a shared /tmp with tens of thousands of entries adds ~60 ms to each
// Bun-based start (Shard, opencode). A project folder's parents are small.
const cwd = workDir();
process.chdir(cwd); // the SDK's agent inherits it, like every other tool's
const readFile = join(cwd, "notes.txt");
/** This run's temporary folders (homes, the built binary, the web build), removed at the end. */
const scratch: string[] = [];
const temp = (dir: string) => {
  scratch.push(dir);
  return dir;
};
writeFileSync(readFile, "hello from the benchmark\n".repeat(50));

const tools = await drivers({ opts, llmUrl: server.url, cwd, temp, log });
const helloDir = temp(benchTempDir("hello"));
// A failed build fails these two floors, each run, with its error.
const hello = Promise.all([buildHello(helloDir, false), buildHello(helloDir, true)]).then(([once, idle]) => ({
  once,
  idle,
}));
hello.catch(() => {});
const results: ToolResult[] = tools.map((t) => ({
  id: t.id,
  label: t.label,
  command: t.command,
  metrics: {},
}));
const floors: FloorResult = {
  bunStart: emptyRuns(),
  bunEval: emptyRuns(),
  bunRss: emptyRuns(),
  compiledStart: emptyRuns(),
  compiledRss: emptyRuns(),
  mock: Object.fromEntries(opts.deltas.map((n) => [n, emptyRuns()])),
  jsonParse: Object.fromEntries(opts.deltas.map((n) => [n, emptyRuns()])),
};
const jsonl = Object.fromEntries(opts.deltas.map((n) => [n, turnJsonl(n)]));
const plan = {
  deltas: opts.deltas,
  peakAt: peakAt(opts.deltas),
  readFile,
  timeoutScale: opts.timeoutScale,
  settleMs: 250,
};

async function measureFloor(runs: MetricRuns, measure: () => Promise<number> | number): Promise<void> {
  try {
    runs.values.push(await measure());
  } catch (err) {
    runs.errors.push((err as Error).message);
  }
}

// One untimed start of each tool first: the OS page cache holds every binary before the runs.
for (const tool of tools) {
  const running = await tool.start(60_000).catch(() => undefined);
  await running?.close().catch(() => undefined);
}

for (let rep = 1; rep <= opts.runs; rep++) {
  for (const [i, tool] of tools.entries()) {
    const t = performance.now();
    await runRepetition(tool, results[i] as ToolResult, server, plan);
    log(`run ${rep}/${opts.runs} ${tool.label}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  await measureFloor(floors.bunStart, () => exitMs(bareBun(), cwd));
  await measureFloor(floors.bunEval, () => exitMs(bunEval(), cwd));
  await measureFloor(floors.bunRss, () =>
    idleRssMb([process.execPath, "-e", IDLE_SCRIPT], cwd, plan.settleMs),
  );
  await measureFloor(floors.compiledStart, async () => exitMs([(await hello).once], cwd));
  await measureFloor(floors.compiledRss, async () => idleRssMb([(await hello).idle], cwd, plan.settleMs));
  for (const n of opts.deltas) {
    await measureFloor(floors.mock[n] as MetricRuns, () => mockAloneMs(server, n, `floor-${rep}-${n}`));
    await measureFloor(floors.jsonParse[n] as MetricRuns, () => jsonParseMs(jsonl[n] as string));
  }
}
await server.close();
process.chdir(REPO);
for (const dir of [cwd, ...scratch]) rmSync(dir, { recursive: true, force: true });

const run: RunResult = {
  command: `bun bench/peers/run.ts ${Bun.argv.slice(2).join(" ")}`.trim(),
  runs: opts.runs,
  deltas: opts.deltas,
  peakAt: plan.peakAt,
  machine: {
    date: `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    nproc: cpus().length,
    loadBefore,
    loadAfter: loadavg(),
    bun: Bun.version,
    node: (await Bun.$`node --version`.nothrow().quiet().text()).trim() || "absent",
    memGiB: Math.round(totalmem() / 2 ** 30),
  },
  tools: results,
  floors,
  durationS: (performance.now() - started) / 1000,
};

const series: Series[] = results.map((t) => ({
  label: t.label,
  points: opts.deltas.map((n) => {
    const runs = t.metrics[turnKey(n)];
    return { n, ms: summarize(runs?.values ?? [])?.median };
  }),
}));
series.push({
  label: "floor: mock alone",
  dashed: true,
  points: opts.deltas.map((n) => ({ n, ms: summarize(floors.mock[n]?.values ?? [])?.median })),
});

const section = renderSection(run, "benchmarks-peers.svg");
console.log(section);
const resultsFile = join(cacheRoot(), "last-run.json");
writeFileSync(resultsFile, JSON.stringify(run, null, 2));
log(`raw results: ${resultsFile}`);
if (opts.write) {
  mkdirSync(join(REPO, "docs"), { recursive: true });
  writeFileSync(
    PLOT,
    renderPlot(series, "Turn of N text deltas: Shard, pi, opencode and the floor (medians)"),
  );
  writeFileSync(DOC, replaceSection(readFileSync(DOC, "utf8"), HEADING, section));
  // The repository's formatter owns the markdown's table layout (and checks the SVG).
  const biome = Bun.spawn([process.execPath, "x", "biome", "check", "--write", DOC, PLOT], {
    cwd: REPO,
    stdout: "ignore",
    stderr: "pipe",
  });
  if ((await biome.exited) !== 0) log(`biome check --write: ${await new Response(biome.stderr).text()}`);
  log(`wrote ${DOC} and ${PLOT}`);
}
log(`done in ${Math.round(run.durationS)} s`);
process.exit(0);
