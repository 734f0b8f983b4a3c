import { expect, test } from "bun:test";
import { TreeMonitor, treePids } from "../../bench/peers/proc-tree.ts";
import { parseChildren, parseStatus, sumRssMb, TreePeaks } from "../../bench/peers/tree-rss.ts";

const status = (name: string, hwm: number, rss: number) =>
  `Name:\t${name}\nUmask:\t0022\nState:\tS (sleeping)\nVmPeak:\t 999999 kB\nVmHWM:\t ${hwm} kB\nVmRSS:\t ${rss} kB\nThreads:\t4\n`;

test("parseStatus reads the peak and current resident set; a kernel thread has none", () => {
  expect(parseStatus(status("opencode", 20480, 10240))).toEqual({
    name: "opencode",
    hwmKb: 20480,
    rssKb: 10240,
  });
  expect(parseStatus("Name:\tkthreadd\nState:\tS (sleeping)\n")).toBeUndefined();
});

test("parseChildren reads the pids of a task's children file", () => {
  expect(parseChildren("123 456 \n")).toEqual([123, 456]);
  expect(parseChildren("")).toEqual([]);
});

test("the tree's peak sums each process's own peak, kept after it ends", () => {
  const peaks = new TreePeaks();
  peaks.record(1, { name: "daemon", hwmKb: 50 * 1024, rssKb: 40 * 1024 });
  peaks.record(2, { name: "agent", hwmKb: 80 * 1024, rssKb: 80 * 1024 });
  // A later reading of the root with a lower VmHWM (never happens in the kernel) keeps the max.
  peaks.record(1, { name: "daemon", hwmKb: 45 * 1024, rssKb: 45 * 1024 });
  // Process 2 has ended: no more readings, its peak still counts.
  expect(peaks.peakMb()).toBe(130);
  expect(peaks.processes().map((p) => p.name)).toEqual(["daemon", "agent"]);
  expect(
    sumRssMb([
      { name: "a", hwmKb: 0, rssKb: 1024 },
      { name: "b", hwmKb: 0, rssKb: 512 },
    ]),
  ).toBe(1.5);
});

test("a live tree: the monitor finds a grandchild and counts its memory", async () => {
  // sh → bun: the grandchild prints once it runs (so it is exec'd), and must be found through
  // the children files.
  const grandchild = `'${process.execPath}' -e 'console.log("started"); setInterval(() => {}, 1e6)'`;
  const proc = Bun.spawn(["sh", "-c", `${grandchild} & wait`], { stdout: "pipe", stderr: "ignore" });
  try {
    await proc.stdout.getReader().read();
    const pids = treePids(proc.pid);
    expect(pids[0]).toBe(proc.pid);
    expect(pids.length).toBeGreaterThanOrEqual(2);
    const monitor = new TreeMonitor(proc.pid);
    const rss = monitor.rssMb();
    expect(rss).toBeGreaterThan(0);
    const names = monitor.peaks.processes().map((p) => p.name);
    expect(names[0]).toBe("sh");
    expect(names.length).toBe(2);
    expect(monitor.peaks.peakMb()).toBeGreaterThanOrEqual(rss);
  } finally {
    for (const pid of treePids(proc.pid).reverse()) process.kill(pid, "SIGKILL");
    await proc.exited;
  }
});
