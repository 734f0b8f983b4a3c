/**
 * Provider timeouts: defaults, the SHARD_PROVIDER_TIMEOUT_* environment variables (seconds)
 * and models.json per-provider overrides.
 *
 * The defaults are generous because local models are slow: a 30B model on a laptop can
 * take minutes to process a long prompt before its first token, so the first byte may take
 * 120 s. Once tokens flow, a minute without a single chunk means the server is stuck. A
 * server that does not even accept the connection in 10 s is down or unreachable.
 */
import type { ProviderTimeouts } from "../contracts/provider.ts";

export const DEFAULT_TIMEOUTS: ProviderTimeouts = { connectMs: 10_000, firstByteMs: 120_000, idleMs: 60_000 };

const ENV_NAMES: Record<keyof ProviderTimeouts, string> = {
  connectMs: "SHARD_PROVIDER_TIMEOUT_CONNECT",
  firstByteMs: "SHARD_PROVIDER_TIMEOUT_FIRST_BYTE",
  idleMs: "SHARD_PROVIDER_TIMEOUT_IDLE",
};

/** Seconds from the environment, or undefined when unset or not a number ≥ 0. */
function envSeconds(env: Record<string, string | undefined>, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  const seconds = Number(raw);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) : undefined;
}

/** Most specific first: explicit options, then the model's provider (models.json), env, defaults. */
export function resolveTimeouts(
  env: Record<string, string | undefined>,
  fromSpec: Partial<ProviderTimeouts> = {},
  fromOptions: Partial<ProviderTimeouts> = {},
): ProviderTimeouts {
  const pick = (key: keyof ProviderTimeouts): number =>
    fromOptions[key] ?? fromSpec[key] ?? envSeconds(env, ENV_NAMES[key]) ?? DEFAULT_TIMEOUTS[key];
  return { connectMs: pick("connectMs"), firstByteMs: pick("firstByteMs"), idleMs: pick("idleMs") };
}

/** `50 ms`, `1.5 s`, `120 s`: for messages a user reads. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  return `${seconds < 10 ? Math.round(seconds * 10) / 10 : Math.round(seconds)} s`;
}

export type TimeoutPhase = "connect" | "first_byte" | "idle";

/** A provider call waited longer than one of its timeouts; retryable like a dropped connection. */
export class ProviderTimeoutError extends Error {
  constructor(
    readonly phase: TimeoutPhase,
    readonly ms: number,
  ) {
    super(
      phase === "connect"
        ? `connect timed out after ${formatDuration(ms)}`
        : phase === "first_byte"
          ? `first byte timed out after ${formatDuration(ms)}`
          : `stream stalled: no data for ${formatDuration(ms)}`,
    );
    this.name = "ProviderTimeoutError";
  }
}
