/** The JIT policy `shard` starts with: less compiling for work that comes in bursts; SHARD_JIT_POLICY. */
import { expect, test } from "bun:test";
import { resolve } from "node:path";
import { DEFAULT_JIT_POLICY, jitPolicyFrom } from "../../src/cli/jit-policy.ts";
import { runShard } from "../providers/run-shard.ts";
import { CHILD_ENV } from "../support/child-env.ts";

const PROBE = resolve(import.meta.dir, "fixtures/jit-probe.ts");

async function optimizingCompiles(
  calls: number,
  waitMs: number,
  env: Record<string, string>,
): Promise<string> {
  const proc = Bun.spawn([process.execPath, PROBE, String(calls), String(waitMs)], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...CHILD_ENV, ...env },
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  return stdout.trim();
}

test("SHARD_JIT_POLICY: a scale from 1 to 1000, else the default with a warning that names the variable", () => {
  expect(jitPolicyFrom(undefined)).toEqual({ scale: DEFAULT_JIT_POLICY });
  expect(jitPolicyFrom(" ")).toEqual({ scale: DEFAULT_JIT_POLICY });
  expect(jitPolicyFrom("1")).toEqual({ scale: 1 });
  expect(jitPolicyFrom("2.5")).toEqual({ scale: 2.5 });
  for (const bad of ["0.5", "0", "-3", "abc", "Infinity", "1001"]) {
    const { scale, warning } = jitPolicyFrom(bad);
    expect(scale).toBe(DEFAULT_JIT_POLICY);
    expect(warning).toContain(`SHARD_JIT_POLICY must be a number from 1 to 1000, got "${bad}"`);
  }
});

test("by default a function called a thousand times stays in the interpreter; at scale 1 it is compiled", async () => {
  expect(await optimizingCompiles(1000, 300, {})).toBe("0 true");
  // A loaded machine may take a while to compile it.
  expect(await optimizingCompiles(1000, 15_000, { SHARD_JIT_POLICY: "1" })).toBe("1 true");
}, 30_000);

test("a bad SHARD_JIT_POLICY is reported on stderr and the command still runs", async () => {
  const ran = await runShard(["--version"], { SHARD_JIT_POLICY: "fast" });
  expect(ran.code).toBe(0);
  expect(ran.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  expect(ran.stderr).toBe(
    `shard: SHARD_JIT_POLICY must be a number from 1 to 1000, got "fast"; using ${DEFAULT_JIT_POLICY}\n`,
  );
});
