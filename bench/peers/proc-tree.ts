/** Walks a live process tree in /proc and keeps its peaks (see tree-rss.ts for the rules). */
import { readdirSync, readFileSync } from "node:fs";
import { type ProcMemory, parseChildren, parseStatus, sumRssMb, TreePeaks } from "./tree-rss.ts";

function read(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined; // the process ended meanwhile
  }
}

export function childPids(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((tid) => parseChildren(read(`/proc/${pid}/task/${tid}/children`) ?? ""));
}

/** The root and all its descendants alive now. */
export function treePids(root: number): number[] {
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    out.push(pid);
    queue.push(...childPids(pid));
  }
  return out;
}

export class TreeMonitor {
  readonly peaks = new TreePeaks();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly root: number) {}

  /** One walk: records every live process's peak; returns the readings. */
  sample(): ProcMemory[] {
    const readings: ProcMemory[] = [];
    for (const pid of treePids(this.root)) {
      const memory = parseStatus(read(`/proc/${pid}/status`) ?? "");
      if (!memory) continue;
      this.peaks.record(pid, memory);
      readings.push(memory);
    }
    return readings;
  }

  /** Resident set of the tree now, MB. */
  rssMb(): number {
    return sumRssMb(this.sample());
  }

  start(intervalMs = 20): void {
    this.stop();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
