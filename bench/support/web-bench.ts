/**
 * What the Chromium benchmarks of the web client share: the client built once by Vite (the
 * same build the tests use), a real `shard daemon` child serving it on a bench home whose
 * model is the local streaming server, and an enrolled tab of the system Chromium (driven over
 * bare CDP, bench/support/cdp-page.ts). Each page gets `bench/support/page-probe.ts` injected
 * before the app loads: it timestamps WebSocket receipts and paints in the page, where the
 * numbers are taken.
 */
import { join, resolve } from "node:path";
import { DaemonClient } from "../../test/daemon/support/daemon-client.ts";
import { builtWebDir } from "../../test/web/support/web-build.ts";
import type { CdpBrowser, CdpPage } from "./cdp-page.ts";
import { PROBE_SCRIPT, type ProbeState } from "./page-probe.ts";

const MAIN = resolve(import.meta.dir, "../../src/cli/main.ts");

export interface BenchDaemon {
  url: string;
  enrollmentUrl: string;
  home: string;
  client(): Promise<DaemonClient>;
  stop(): Promise<void>;
}

export async function startBenchDaemon(home: string): Promise<BenchDaemon> {
  // An unminified build (vite build web --minify false) makes a profile readable.
  const webDir = process.env.SHARD_BENCH_WEB_DIR ?? (await builtWebDir());
  const proc = Bun.spawn([process.execPath, MAIN, "daemon", "--port", "0"], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: process.env.PATH ?? "", HOME: home, SHARD_HOME: home, SHARD_WEB_DIR: webDir },
  });
  let out = "";
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let url: string | undefined;
  let enrollmentUrl: string | undefined;
  while (url === undefined || enrollmentUrl === undefined) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error(`daemon exited: ${await new Response(proc.stderr).text()}`);
    out += decoder.decode(chunk.value);
    url = /^(http:\/\/127\.0\.0\.1:\d+)$/m.exec(out)?.[1];
    enrollmentUrl = /(http:\/\/127\.0\.0\.1:\d+\/#enroll=[A-Za-z0-9_-]+)/.exec(out)?.[1];
  }
  void (async () => {
    for (;;) if ((await reader.read()).done) return;
  })();
  const clients: DaemonClient[] = [];
  return {
    url,
    enrollmentUrl,
    home,
    client: async () => {
      const c = await DaemonClient.unix(join(home, "daemon.sock"));
      clients.push(c);
      return c;
    },
    stop: async () => {
      for (const c of clients) c.close();
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** A fresh tab enrolled through the daemon's printed link and connected, with the probe in. */
export async function enrolledPage(
  browser: CdpBrowser,
  enrollmentUrl: string,
  search = "",
): Promise<CdpPage> {
  const page = await browser.newPage(PROBE_SCRIPT);
  await page.goto(enrollmentUrl.replace("/#enroll=", `/${search}#enroll=`));
  await page.waitFor(`document.querySelector('[data-testid="connection"][data-state="open"]')`);
  return page;
}

export async function readProbe(page: CdpPage): Promise<ProbeState> {
  return page.evaluate<ProbeState>("window.__benchProbe");
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

export function median(xs: number[]): number {
  return percentile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
}

export const ms = (x: number) => `${x.toFixed(1)} ms`;
