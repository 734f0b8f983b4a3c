/** Renders a run's results as the markdown of docs/benchmarks.md's peers section (pure). */
import {
  type FloorResult,
  type MetricKey,
  type MetricRuns,
  type RunResult,
  type ToolResult,
  turnKey,
} from "./results.ts";
import { summarize } from "./stats.ts";

export const SHARD_MAIN = "shard-bin";
const isPeer = (t: ToolResult) => !t.id.startsWith("shard");

const int = (x: number) => Math.round(x).toLocaleString("en-US");
export function fmtMs(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${int(ms)} ms`;
}
const fmtMb = (mb: number) => `${int(mb)} MB`;
const fmtN = (n: number) => (n >= 1000 ? `${n / 1000}k` : String(n));

/** "**61 ms** (58–70)", with the failures if any: "crashed 2 of 5". */
export function cell(
  runs: MetricRuns | undefined,
  fmt: (x: number) => string,
  notes = new Footnotes(),
): string {
  if (!runs) return "—";
  const s = summarize(runs.values);
  const failed = runs.errors.length;
  const total = runs.values.length + failed;
  const failure = failed > 0 ? `crashed ${failed} of ${total} [^e${notes.add(runs.errors[0] ?? "")}]` : "";
  if (!s) return failure || "—";
  const range = s.count > 1 ? ` (${fmt(s.min).replace(/ (ms|MB)$/, "")}–${fmt(s.max)})` : "";
  return `**${fmt(s.median)}**${range}${failure ? `; ${failure}` : ""}`;
}

/** The errors behind the "crashed" cells, one footnote per distinct first error. */
export class Footnotes {
  readonly texts: string[] = [];
  /** The footnote's number (1-based). */
  add(error: string): number {
    const text = error.replace(/\|/g, "/").replace(/\s+/g, " ").trim();
    const index = this.texts.indexOf(text);
    return index >= 0 ? index + 1 : this.texts.push(text);
  }
}

const median = (runs: MetricRuns | undefined) => summarize(runs?.values ?? [])?.median;

interface Column {
  head: string;
  key: MetricKey;
  fmt: (x: number) => string;
}

function columns(r: RunResult): Column[] {
  return [
    { head: "start → ready", key: "ready", fmt: fmtMs },
    { head: "idle RSS", key: "idleRss", fmt: fmtMb },
    ...r.deltas.map((n) => ({ head: `${fmtN(n)}-delta turn`, key: turnKey(n), fmt: fmtMs })),
    { head: "tool turn", key: "toolTurn", fmt: fmtMs },
    { head: `peak RSS at ${fmtN(r.peakAt)}`, key: "peakRss", fmt: fmtMb },
  ];
}

function floorCells(f: FloorResult, r: RunResult, notes: Footnotes): string[] {
  return columns(r).map((c) => {
    if (c.key === "ready")
      return [
        `\`bun -e ''\` ${cell(f.bunStart, fmtMs, notes)}`,
        `\`bun -e "console.log(…)"\` ${cell(f.bunEval, fmtMs, notes)}`,
        `compiled one-liner ${cell(f.compiledStart, fmtMs, notes)}`,
      ].join("; ");
    if (c.key === "idleRss")
      return `idle Bun ${cell(f.bunRss, fmtMb, notes)}; compiled one-liner ${cell(f.compiledRss, fmtMb, notes)}`;
    if (c.key.startsWith("turn:")) {
      const n = Number(c.key.slice(5));
      return `mock alone ${cell(f.mock[n], fmtMs, notes)}; \`JSON.parse\` ${cell(f.jsonParse[n], fmtMs, notes)}`;
    }
    return "—";
  });
}

function row(cells: string[]): string {
  return `| ${cells.join(" | ")} |`;
}

export function resultsTable(r: RunResult, notes = new Footnotes()): string {
  const cols = columns(r);
  const lines = [row(["tool", ...cols.map((c) => c.head)]), row(["---", ...cols.map(() => "---")])];
  for (const t of r.tools)
    lines.push(row([t.label, ...cols.map((c) => cell(t.metrics[c.key], c.fmt, notes))]));
  lines.push(row(["floors", ...floorCells(r.floors, r, notes)]));
  return lines.join("\n");
}

/** The floor of a measure, if it has one: bare Bun for start and memory, the mock for turns. */
function floorOf(key: MetricKey, f: FloorResult): { label: string; value: number | undefined } | undefined {
  if (key === "ready") return { label: "bare Bun start", value: median(f.bunStart) };
  if (key === "idleRss") return { label: "bare Bun", value: median(f.bunRss) };
  if (key.startsWith("turn:")) return { label: "mock alone", value: median(f.mock[Number(key.slice(5))]) };
  return undefined;
}

const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || b === 0 ? "—" : `${(a / b).toFixed(a / b < 10 ? 2 : 1)}×`;

export function ratiosTable(r: RunResult): string {
  const shard = r.tools.find((t) => t.id === SHARD_MAIN);
  const peers = r.tools.filter(isPeer);
  const lines = [
    row(["measure", "Shard compiled", "best peer", "Shard / best peer", "floor", "Shard / floor"]),
    row(["---", "---", "---", "---", "---", "---"]),
  ];
  for (const c of columns(r)) {
    const mine = median(shard?.metrics[c.key]);
    let best: { label: string; value: number } | undefined;
    for (const p of peers) {
      const v = median(p.metrics[c.key]);
      // A peer that failed any repetition of a measure is not its best: its median hides the crashes.
      if (v === undefined || (p.metrics[c.key]?.errors.length ?? 0) > 0) continue;
      if (!best || v < best.value) best = { label: p.label, value: v };
    }
    const floor = floorOf(c.key, r.floors);
    lines.push(
      row([
        c.head,
        mine === undefined ? "—" : c.fmt(mine),
        best ? `${c.fmt(best.value)} (${best.label})` : "— (every peer crashed)",
        ratio(mine, best?.value),
        floor?.value === undefined ? "—" : `${c.fmt(floor.value)} (${floor.label})`,
        ratio(mine, floor?.value),
      ]),
    );
  }
  return lines.join("\n");
}

export interface Goal {
  goal: string;
  measured: string;
  met: boolean | undefined;
}

/** The issue's goals for Shard, each against this run's figures. */
export function goals(r: RunResult): Goal[] {
  const tool = (id: string) => r.tools.find((t) => t.id === id);
  const out: Goal[] = [];
  const within = (goal: string, id: string, key: MetricKey, floor: number | undefined, factor: number) => {
    const v = median(tool(id)?.metrics[key]);
    const x = v !== undefined && floor !== undefined ? v / floor : undefined;
    out.push({
      goal,
      measured:
        x === undefined
          ? "not measured"
          : `${fmtMs(v as number)} = ${x.toFixed(2)}× (floor ${fmtMs(floor as number)})`,
      met: x === undefined ? undefined : x <= factor,
    });
  };
  for (const n of r.deltas.filter((d) => d >= 10_000)) {
    const mock = median(r.floors.mock[n]);
    within(`${fmtN(n)}-delta turn, direct (compiled) ≤ 2× mock alone`, SHARD_MAIN, turnKey(n), mock, 2);
    within(
      `${fmtN(n)}-delta turn, through the daemon ≤ 2.5× mock alone`,
      "shard-daemon",
      turnKey(n),
      mock,
      2.5,
    );
  }
  const bun = median(r.floors.bunStart);
  within("start → ready (compiled agent) ≤ 3× bare Bun start (`bun -e ''`)", SHARD_MAIN, "ready", bun, 3);
  within(
    "start → ready (compiled daemon) ≤ 3× bare Bun start (`bun -e ''`)",
    "shard-daemon",
    "ready",
    bun,
    3,
  );
  // `bun -e ''` never builds a VM; a compiled program that prints one line is the floor that does.
  const compiled = median(r.floors.compiledStart);
  within("start → ready (compiled agent) ≤ 3× a compiled one-line program", SHARD_MAIN, "ready", compiled, 3);
  const idle = median(tool(SHARD_MAIN)?.metrics.idleRss);
  const floorRss = median(r.floors.compiledRss);
  out.push({
    goal: "idle RSS of an agent (compiled) < 35 MB",
    measured:
      idle === undefined
        ? "not measured"
        : `${fmtMb(idle)}${floorRss === undefined ? "" : ` (a compiled one-line program: ${fmtMb(floorRss)})`}`,
    met: idle === undefined ? undefined : idle < 35,
  });
  return out;
}

export function goalsTable(r: RunResult): string {
  const lines = [row(["goal", "this run", "met?"]), row(["---", "---", "---"])];
  for (const g of goals(r))
    lines.push(row([g.goal, g.measured, g.met === undefined ? "—" : g.met ? "**met**" : "not met"]));
  return lines.join("\n");
}

/** The whole generated part of the section: setup, tables, footnotes with the errors. */
export function renderSection(r: RunResult, plotPath: string): string {
  const m = r.machine;
  const notes = new Footnotes();
  const table = resultsTable(r, notes);
  const ratios = ratiosTable(r);
  const footnotes = notes.texts.map((n, i) => `[^e${i + 1}]: ${n}`);
  const commands = r.tools.map((t) => `- ${t.label}: \`${t.command}\``);
  return [
    `Command: \`${r.command}\` — ${r.runs} repetitions, tools interleaved, ${Math.round(r.durationS)} s in all.`,
    `Measured ${m.date} on ${m.nproc} cores, ${m.memGiB} GiB, load average ${m.loadBefore.map((x) => x.toFixed(2)).join(" ")} before and ${m.loadAfter.map((x) => x.toFixed(2)).join(" ")} after; Bun ${m.bun}, Node ${m.node}.`,
    "Medians in bold, (min–max) over the repetitions; a turn counts only if every delta arrived.",
    "",
    table,
    "",
    ratios,
    "",
    `![Turn time against the number of text deltas, log–log](${plotPath})`,
    "",
    "How each tool was run:",
    "",
    ...commands,
    ...(footnotes.length > 0 ? ["", ...footnotes] : []),
    "",
    "The issue's goals for Shard, in this run:",
    "",
    goalsTable(r),
  ].join("\n");
}

export const SECTION_START =
  "<!-- peers-bench:start (generated by bench/peers/run.ts; edits inside are overwritten) -->";
export const SECTION_END = "<!-- peers-bench:end -->";

/** Replaces the generated part between the markers, or appends the section with them. */
export function replaceSection(doc: string, heading: string, body: string): string {
  const block = `${SECTION_START}\n${body}\n${SECTION_END}`;
  const start = doc.indexOf(SECTION_START);
  const end = doc.indexOf(SECTION_END);
  if (start >= 0 && end > start) return doc.slice(0, start) + block + doc.slice(end + SECTION_END.length);
  return `${doc.trimEnd()}\n\n${heading}\n\n${block}\n`;
}
