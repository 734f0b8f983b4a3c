/**
 * The always-loaded face of OpenTelemetry (docs/telemetry.md). With export off — the default —
 * `telemetry()` is a no-op whose spans are one shared object, and nothing from @opentelemetry
 * is ever imported; `startTelemetry` loads the real implementation (otel-telemetry.ts) only
 * when the standard OTEL_* variables ask for it. Nothing per delta is instrumented.
 */
import { telemetryChoice } from "./telemetry-config.ts";

export type AttributeValue = string | number | boolean;
export type Attributes = Readonly<Record<string, AttributeValue>>;

export type SpanName = "shard.turn" | "shard.provider_call" | "shard.tool_call";
export type CounterName = "shard.tokens" | "shard.cost" | "shard.turns" | "shard.tool_calls";
export type HistogramName = "shard.permission.wait";
export type UpDownCounterName = "shard.runtimes.live";

export interface TelemetrySpan {
  set(key: string, value: AttributeValue): void;
  /** Ends the span; `errorType` (a code or category, never content) marks it failed. */
  end(errorType?: string): void;
  /** This span as a W3C `traceparent`, for work another process does on its behalf. */
  traceparent(): string | undefined;
}

export interface Telemetry {
  readonly enabled: boolean;
  /** SHARD_OTEL_LOG_CONTENT=1: prompt text, tool arguments and outputs may be exported. */
  readonly logContent: boolean;
  /** A span under `parent`, or under the process's TRACEPARENT when there is none. */
  span(name: SpanName, attributes: Attributes, parent?: TelemetrySpan): TelemetrySpan;
  count(name: CounterName, value: number, attributes: Attributes): void;
  record(name: HistogramName, value: number, attributes: Attributes): void;
  add(name: UpDownCounterName, value: number, attributes: Attributes): void;
  /** Exports what is left and stops; settles within the export timeout whatever the collector does. */
  shutdown(): Promise<void>;
}

const NO_SPAN: TelemetrySpan = {
  set() {},
  end() {},
  traceparent: () => undefined,
};

export const NO_TELEMETRY: Telemetry = {
  enabled: false,
  logContent: false,
  span: () => NO_SPAN,
  count() {},
  record() {},
  add() {},
  shutdown: () => Promise.resolve(),
};

let current: Telemetry = NO_TELEMETRY;

/** The process's telemetry: the no-op until `startTelemetry` turned export on. */
export function telemetry(): Telemetry {
  return current;
}

/**
 * Turns export on when the environment asks for it (once per process; later calls return the
 * first result). `warn` hears a setting that was refused. A failure to load or configure the
 * SDK leaves telemetry off: it never stops the agent or the daemon.
 */
export async function startTelemetry(
  env: Record<string, string | undefined>,
  role: "agent" | "daemon" | "run",
  version: string,
  warn: (message: string) => void,
): Promise<Telemetry> {
  if (current !== NO_TELEMETRY) return current;
  const choice = telemetryChoice(env);
  if (!choice.on) {
    if (choice.problem !== undefined) warn(choice.problem);
    return current;
  }
  try {
    const { createOtelTelemetry } = await import("./otel-telemetry.ts");
    current = await createOtelTelemetry(choice.config, role, version);
  } catch (err) {
    warn(`telemetry is off: ${err instanceof Error ? err.message : String(err)}`);
  }
  return current;
}

/** Flushes and stops export (bounded); telemetry is the no-op again afterwards. */
export async function stopTelemetry(): Promise<void> {
  const running = current;
  current = NO_TELEMETRY;
  await running.shutdown();
}
