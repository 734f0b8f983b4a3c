/**
 * The bubblewrap probe remembered for the boot: a start after one that probed does not run
 * bubblewrap again, and anything that could change the answer (another binary, a changed one,
 * another boot, a damaged record, a failure) probes again. Each probe is a fresh process, as
 * each agent's start is, against a stand-in bwrap that logs every run.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { BubblewrapProbe } from "../../src/sandbox/bubblewrap-probe.ts";
import { probeCachePath, rememberedWorking, rememberWorking } from "../../src/sandbox/probe-cache.ts";
import { CHILD_ENV } from "../support/child-env.ts";
import { makeTempDir } from "../support/temp-dirs.ts";

const PROBE = resolve(import.meta.dir, "fixtures/probe-once.ts");

/** A stand-in bwrap that appends a line to `log` at every run and exits with `exitCode`. */
function fakeBwrap(dir: string, exitCode = 0): { path: string; runs: () => number } {
  const path = join(dir, "bwrap");
  const log = join(dir, "runs.log");
  writeFileSync(log, "");
  writeFileSync(
    path,
    `#!/bin/sh\necho run >> '${log}'\necho 'cannot make a namespace' >&2\nexit ${exitCode}\n`,
  );
  chmodSync(path, 0o755);
  return { path, runs: () => readFileSync(log, "utf8").split("\n").filter(Boolean).length };
}

async function probeInNewProcess(bwrap: string, home: string): Promise<BubblewrapProbe> {
  const proc = Bun.spawn([process.execPath, PROBE, home], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...CHILD_ENV, SHARD_BWRAP: bwrap },
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  return JSON.parse(stdout);
}

describe("a bubblewrap that worked is not probed again in this boot", () => {
  test("the second start reuses the answer; a changed binary is probed again", async () => {
    const dir = makeTempDir("probe-cache-");
    const home = join(dir, "home");
    const bwrap = fakeBwrap(dir);
    expect(await probeInNewProcess(bwrap.path, home)).toEqual({ ok: true, path: bwrap.path });
    expect(bwrap.runs()).toBe(1);
    expect(await probeInNewProcess(bwrap.path, home)).toEqual({ ok: true, path: bwrap.path });
    expect(bwrap.runs()).toBe(1);
    // Replaced or touched (an upgrade): probed again, and remembered again.
    utimesSync(bwrap.path, new Date(), new Date(Date.now() + 5_000));
    await probeInNewProcess(bwrap.path, home);
    expect(bwrap.runs()).toBe(2);
    await probeInNewProcess(bwrap.path, home);
    expect(bwrap.runs()).toBe(2);
  });

  test("a failure is never remembered: every start probes, and says why", async () => {
    const dir = makeTempDir("probe-cache-");
    const home = join(dir, "home");
    const bwrap = fakeBwrap(dir, 1);
    for (const runs of [1, 2]) {
      const probed = await probeInNewProcess(bwrap.path, home);
      expect(probed.ok ? "worked" : probed.reason).toContain(
        "cannot make a sandbox here: cannot make a namespace",
      );
      expect(bwrap.runs()).toBe(runs);
    }
  });

  test("a record of another binary, another boot or a damaged one is not believed (negative)", () => {
    const dir = makeTempDir("probe-cache-");
    const home = join(dir, "home");
    const bwrap = fakeBwrap(dir);
    const other = fakeBwrap(makeTempDir("probe-cache-other-"));
    rememberWorking(home, bwrap.path);
    expect(rememberedWorking(home, bwrap.path)).toBe(true);
    expect(rememberedWorking(home, other.path)).toBe(false);
    // The same path, a changed file.
    writeFileSync(other.path, "#!/bin/sh\nexit 0\n");
    rememberWorking(home, other.path);
    writeFileSync(other.path, "#!/bin/sh\nexit 0 # changed\n");
    expect(rememberedWorking(home, other.path)).toBe(false);
    rememberWorking(home, bwrap.path);
    const record = JSON.parse(readFileSync(probeCachePath(home), "utf8"));
    const rewrite = (value: unknown) => writeFileSync(probeCachePath(home), JSON.stringify(value));
    rewrite({ ...record, boot_id: "another-boot" });
    expect(rememberedWorking(home, bwrap.path)).toBe(false);
    rewrite({ ...record, uid: record.uid + 1 });
    expect(rememberedWorking(home, bwrap.path)).toBe(false);
    rewrite({ ...record, extra: true });
    expect(rememberedWorking(home, bwrap.path)).toBe(false);
    writeFileSync(probeCachePath(home), "{not json");
    expect(rememberedWorking(home, bwrap.path)).toBe(false);
    writeFileSync(probeCachePath(home), `${JSON.stringify(record)}${" ".repeat(5000)}`);
    expect(rememberedWorking(home, bwrap.path)).toBe(false);
    // Rewritten whole, it holds again.
    rewrite(record);
    expect(rememberedWorking(home, bwrap.path)).toBe(true);
  });
});
