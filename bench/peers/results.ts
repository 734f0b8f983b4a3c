/** The shape of one benchmark run's results (what run.ts collects and report.ts renders). */

/** Values of one measure over the repetitions, and an error for each repetition that failed. */
export interface MetricRuns {
  values: number[];
  errors: string[];
}

export type MetricKey = "ready" | "idleRss" | "toolTurn" | "peakRss" | `turn:${number}`;

export const turnKey = (n: number): MetricKey => `turn:${n}`;

export interface ToolResult {
  id: string;
  label: string;
  command: string;
  metrics: Partial<Record<MetricKey, MetricRuns>>;
}

export interface FloorResult {
  /** `bun -e ''`: spawn → exit (an empty script ends in a few ms, seemingly before Bun's VM exists). */
  bunStart: MetricRuns;
  /** `bun -e "console.log('ready')"`: spawn → exit, a Bun process that runs one line. */
  bunEval: MetricRuns;
  bunRss: MetricRuns;
  /** A compiled one-line program (`--compile --bytecode`, as build:binary): spawn → exit, and idle RSS. */
  compiledStart: MetricRuns;
  compiledRss: MetricRuns;
  /** The mock alone streaming N deltas to a plain client, by N. */
  mock: Record<number, MetricRuns>;
  /** JSON.parse of an N-delta turn's JSONL, by N. */
  jsonParse: Record<number, MetricRuns>;
}

export interface Machine {
  date: string;
  nproc: number;
  loadBefore: number[];
  loadAfter: number[];
  bun: string;
  node: string;
  memGiB: number;
}

export interface RunResult {
  command: string;
  runs: number;
  deltas: number[];
  /** The N whose turn the peak RSS column is taken at. */
  peakAt: number;
  machine: Machine;
  tools: ToolResult[];
  floors: FloorResult;
  durationS: number;
}

export function emptyRuns(): MetricRuns {
  return { values: [], errors: [] };
}

export function record(
  target: Partial<Record<MetricKey, MetricRuns>>,
  key: MetricKey,
  value: number | Error,
): void {
  const runs = target[key] ?? emptyRuns();
  target[key] = runs;
  if (value instanceof Error) runs.errors.push(value.message);
  else runs.values.push(value);
}
