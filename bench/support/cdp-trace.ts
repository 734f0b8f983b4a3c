/**
 * Where a page's time goes during a benchmark run (`--trace` of bench/web-stream.ts): a
 * Chromium trace over the bare DevTools protocol, summed per kind of work on the page's main
 * thread (script, style, layout, paint, GC, …) and on the raster and compositor threads.
 * Nested events are counted by their self time, so the rows add up to the thread's busy time.
 */
import type { CdpBrowser } from "./cdp-page.ts";

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

const CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8",
  "v8.execute",
  "blink",
  "cc",
  "toplevel",
].join(",");

export async function startTrace(browser: CdpBrowser): Promise<() => Promise<TraceEvent[]>> {
  const events: TraceEvent[] = [];
  let complete: (() => void) | undefined;
  browser.on((method, params) => {
    if (method === "Tracing.dataCollected" && Array.isArray(params.value))
      events.push(...(params.value as TraceEvent[]));
    if (method === "Tracing.tracingComplete") complete?.();
  });
  await browser.send("Tracing.start", { categories: CATEGORIES, transferMode: "ReportEvents" });
  return async () => {
    const done = new Promise<void>((resolve) => {
      complete = resolve;
    });
    await browser.send("Tracing.end");
    await done;
    return events;
  };
}

/** Self time per event name on each named thread, in ms, largest first. */
export function summarizeTrace(events: readonly TraceEvent[], threads: readonly string[]): string[] {
  const names = new Map<string, string>();
  for (const e of events)
    if (e.ph === "M" && e.name === "thread_name" && e.args?.name !== undefined)
      names.set(`${e.pid}:${e.tid}`, e.args.name);
  const lines: string[] = [];
  for (const thread of threads) {
    const keys = [...names].filter(([, n]) => n.startsWith(thread)).map(([k]) => k);
    // The renderer with the most events on this thread is the page's.
    let best: string | undefined;
    let bestCount = 0;
    for (const key of keys) {
      const count = events.filter((e) => `${e.pid}:${e.tid}` === key && e.ph === "X").length;
      if (count > bestCount) {
        best = key;
        bestCount = count;
      }
    }
    const mine = thread.startsWith("CrRendererMain")
      ? events.filter((e) => `${e.pid}:${e.tid}` === best && e.ph === "X" && e.dur !== undefined)
      : events.filter((e) => keys.includes(`${e.pid}:${e.tid}`) && e.ph === "X" && e.dur !== undefined);
    const self = selfTimes(mine);
    const total = [...self.values()].reduce((a, b) => a + b, 0);
    const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 14);
    lines.push(`${thread}: busy ${(total / 1000).toFixed(0)} ms`);
    for (const [name, us] of top) lines.push(`  ${(us / 1000).toFixed(1).padStart(8)} ms  ${name}`);
  }
  return lines;
}

/** Self time by name: each event's duration less that of the events nested directly in it. */
function selfTimes(events: readonly TraceEvent[]): Map<string, number> {
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    const list = byThread.get(key) ?? [];
    list.push(e);
    byThread.set(key, list);
  }
  const self = new Map<string, number>();
  for (const list of byThread.values()) {
    list.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
    const stack: TraceEvent[] = [];
    for (const e of list) {
      const end = e.ts + (e.dur ?? 0);
      while (stack.length > 0) {
        const top = stack[stack.length - 1];
        if (top !== undefined && top.ts + (top.dur ?? 0) <= e.ts) stack.pop();
        else break;
      }
      const parent = stack[stack.length - 1];
      if (parent !== undefined && end <= parent.ts + (parent.dur ?? 0))
        self.set(parent.name, (self.get(parent.name) ?? 0) - (e.dur ?? 0));
      self.set(e.name, (self.get(e.name) ?? 0) + (e.dur ?? 0));
      stack.push(e);
    }
  }
  return self;
}
