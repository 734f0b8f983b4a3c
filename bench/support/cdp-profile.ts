/**
 * A page's JavaScript CPU profile over the bare DevTools protocol (`--profile` of
 * bench/web-stream.ts): the functions with the most self time. For readable names, serve an
 * unminified build (`vite build web --minify false --outDir …`, then SHARD_BENCH_WEB_DIR).
 */
import type { CdpPage } from "./cdp-page.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export async function startProfile(page: CdpPage): Promise<() => Promise<Profile>> {
  await page.send("Profiler.enable");
  await page.send("Profiler.setSamplingInterval", { interval: 200 });
  await page.send("Profiler.start");
  return async () => {
    const { profile } = await page.send("Profiler.stop");
    await page.send("Profiler.disable");
    return profile as Profile;
  };
}

/** Self time per function (name, file and line), in ms, largest first. */
export function summarizeProfile(profile: Profile, rows = 20): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i] ?? -1);
    if (node === undefined) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.split("/").at(-1) ?? "";
    const key = `${functionName || "(anonymous)"} ${file}${file ? `:${lineNumber + 1}` : ""}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  }
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, rows)
    .map(([key, us]) => `  ${(us / 1000).toFixed(1).padStart(8)} ms  ${key}`);
}
