/**
 * One repetition of one tool, in a fresh process: start → ready, idle RSS, a warm-up turn
 * (opencode titles a session on its first message), the tool turn, then the N-delta turns in
 * increasing N; the tree's peak RSS is read right after the `peakAt` turn. A failure is
 * recorded for the measure it hit; the measures after it in that process are not run.
 */

import type { MockLlmServer } from "../../test/support/mock-llm/types.ts";
import { floodReply } from "./floors.ts";
import { TreeMonitor } from "./proc-tree.ts";
import { type MetricKey, record, type ToolResult, turnKey } from "./results.ts";
import type { RunningTool, ToolDriver } from "./tool.ts";

export interface RepetitionPlan {
  deltas: number[];
  peakAt: number;
  /** Absolute path of the small file the tool turn reads. */
  readFile: string;
  timeoutScale: number;
  /** Pause after ready before the idle RSS is read (start-up work settles). */
  settleMs: number;
}

let markerCount = 0;
const marker = (tool: string, what: string) =>
  `bench-${tool}-${what}-${++markerCount}-${Date.now().toString(36)}`;

/** Deadline of a turn of `n` deltas: generous, since a crash or stall is what it catches. */
export function turnTimeoutMs(n: number, scale: number): number {
  return Math.round((20_000 + n * 1.2) * scale);
}

export async function runRepetition(
  tool: ToolDriver,
  result: ToolResult,
  server: MockLlmServer,
  plan: RepetitionPlan,
): Promise<void> {
  const pending: MetricKey[] = ["ready", "idleRss", "toolTurn", ...plan.deltas.map(turnKey), "peakRss"];
  const done = (key: MetricKey, value: number | Error) => {
    record(result.metrics, key, value);
    pending.splice(pending.indexOf(key), 1);
  };
  const t0 = performance.now();
  let running: RunningTool;
  try {
    running = await tool.start(Math.round(30_000 * plan.timeoutScale));
  } catch (err) {
    const error = asError(err, "ready");
    for (const key of [...pending]) done(key, error);
    return;
  }
  done("ready", performance.now() - t0);
  const monitor = new TreeMonitor(running.rootPid);
  monitor.start(25);
  let current: MetricKey = "idleRss";
  try {
    await Bun.sleep(plan.settleMs);
    done("idleRss", monitor.rssMb());

    current = "toolTurn";
    await running.turn(`warm up ${marker(tool.id, "warm")}`, Math.round(60_000 * plan.timeoutScale));
    const toolMarker = marker(tool.id, "tool");
    const call = tool.readCall(plan.readFile);
    server.enqueue(
      { when: toolMarker, steps: [{ tool_call: call }] },
      { when: toolMarker, steps: [{ text: "The notes say hello.", chunks: 5 }] },
    );
    let t = performance.now();
    await running.turn(`read the notes ${toolMarker}`, Math.round(30_000 * plan.timeoutScale));
    done("toolTurn", performance.now() - t);

    for (const n of plan.deltas) {
      current = turnKey(n);
      const m = marker(tool.id, `n${n}`);
      server.enqueue(floodReply(n, m));
      t = performance.now();
      const { deltas } = await running.turn(`stream ${m}`, turnTimeoutMs(n, plan.timeoutScale));
      const ms = performance.now() - t;
      if (deltas !== n)
        throw new Error(`${deltas.toLocaleString("en-US")} of ${n.toLocaleString("en-US")} deltas arrived`);
      done(current, ms);
      if (n === plan.peakAt) {
        monitor.sample();
        done("peakRss", monitor.peaks.peakMb());
      }
    }
  } catch (err) {
    const error = asError(err, current);
    done(current, error);
    if (current === turnKey(plan.peakAt) && pending.includes("peakRss")) done("peakRss", error);
    for (const key of [...pending])
      done(key, new Error(`not run: the ${label(current)} failed (${error.message})`));
  } finally {
    monitor.sample(); // each process's VmHWM, read just before it ends
    monitor.stop();
    await running.close().catch(() => undefined);
  }
}

function label(key: MetricKey): string {
  if (key.startsWith("turn:")) return `${Number(key.slice(5)).toLocaleString("en-US")}-delta turn`;
  return key === "toolTurn" ? "warm-up or tool turn" : key;
}

function asError(err: unknown, what: MetricKey): Error {
  const message = err instanceof Error ? err.message : String(err);
  return new Error(`${label(what)}: ${message}`.replace(/\s+/g, " ").slice(0, 500));
}
