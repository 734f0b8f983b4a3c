/**
 * How reluctant JavaScriptCore's JIT is to compile (Bun.unsafe.setJITPolicy: its tier-up
 * thresholds times the scale). An agent's work comes in bursts: start-up, a tool call, a
 * turn of a few thousand deltas. At the normal policy (1) the JIT compiles most of that code
 * on its background threads while it runs, and on two cores that compiling took as much CPU
 * as the runtime's own thread, and the tool turn 10–12 ms instead of 8 (docs/benchmarks.md,
 * "Session 9"). At 30, code that runs once stays in the interpreter and only the code a long
 * turn runs tens of thousands of times is compiled; a daemon's long-lived hot paths still
 * reach the top tier. `SHARD_JIT_POLICY` sets another scale (1 is JavaScriptCore's own).
 */

export const DEFAULT_JIT_POLICY = 30;

/** The scale `SHARD_JIT_POLICY` asks for, or the default with a warning when it is not one. */
export function jitPolicyFrom(value: string | undefined): { scale: number; warning?: string } {
  if (value === undefined || value.trim() === "") return { scale: DEFAULT_JIT_POLICY };
  const scale = Number(value);
  if (Number.isFinite(scale) && scale >= 1 && scale <= 1000) return { scale };
  return {
    scale: DEFAULT_JIT_POLICY,
    warning: `shard: SHARD_JIT_POLICY must be a number from 1 to 1000, got "${value}"; using ${DEFAULT_JIT_POLICY}\n`,
  };
}

/** Applies the policy `SHARD_JIT_POLICY` asks for (a Bun without setJITPolicy keeps its own). */
export function applyJitPolicy(env: NodeJS.ProcessEnv, warn: (line: string) => void): void {
  const { scale, warning } = jitPolicyFrom(env.SHARD_JIT_POLICY);
  if (warning !== undefined) warn(warning);
  if (typeof Bun.unsafe.setJITPolicy === "function") Bun.unsafe.setJITPolicy(scale);
}
