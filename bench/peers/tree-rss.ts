/**
 * Memory of a whole process tree from /proc (pure parts). A tool's tree is its root process and
 * every descendant seen while it ran (opencode and the Shard daemon start children). The peak
 * of the tree is the sum of each process's own peak (VmHWM, kept by the kernel, so a spike
 * between two samples still counts); a process's VmHWM is read again just before it ends.
 */

export interface ProcMemory {
  name: string;
  /** VmHWM: the process's peak resident set, kB. */
  hwmKb: number;
  /** VmRSS: resident now, kB. */
  rssKb: number;
}

/** The fields we need from /proc/<pid>/status; undefined for a kernel thread or a zombie. */
export function parseStatus(text: string): ProcMemory | undefined {
  const name = /^Name:\s*(.*)$/m.exec(text)?.[1]?.trim() ?? "?";
  const hwm = /^VmHWM:\s+(\d+)\s*kB/m.exec(text)?.[1];
  const rss = /^VmRSS:\s+(\d+)\s*kB/m.exec(text)?.[1];
  if (hwm === undefined || rss === undefined) return undefined;
  return { name, hwmKb: Number(hwm), rssKb: Number(rss) };
}

/** /proc/<pid>/task/<tid>/children: space-separated child pids. */
export function parseChildren(text: string): number[] {
  return text
    .split(/\s+/)
    .filter((word) => /^\d+$/.test(word))
    .map(Number);
}

/** Per-process peaks of a tree over its life, fed with readings as they are taken. */
export class TreePeaks {
  private readonly peaks = new Map<number, ProcMemory>();

  record(pid: number, memory: ProcMemory): void {
    const seen = this.peaks.get(pid);
    this.peaks.set(pid, {
      name: memory.name,
      hwmKb: Math.max(seen?.hwmKb ?? 0, memory.hwmKb),
      rssKb: memory.rssKb,
    });
  }

  /** Sum of every process's own peak, MB. */
  peakMb(): number {
    let kb = 0;
    for (const m of this.peaks.values()) kb += m.hwmKb;
    return kb / 1024;
  }

  processes(): { pid: number; name: string; hwmMb: number }[] {
    return [...this.peaks].map(([pid, m]) => ({ pid, name: m.name, hwmMb: m.hwmKb / 1024 }));
  }
}

/** Resident set of the tree at one moment, MB (the readings of one walk). */
export function sumRssMb(readings: readonly ProcMemory[]): number {
  return readings.reduce((kb, m) => kb + m.rssKb, 0) / 1024;
}
