/**
 * Whether OpenTelemetry export is on, from the standard OTEL_* variables alone (docs/telemetry.md).
 * Always loaded, so it imports nothing from @opentelemetry.
 */

export type OtlpProtocol = "http/json" | "http/protobuf";

export interface TelemetryConfig {
  protocol: OtlpProtocol;
  serviceName: string;
  /** SHARD_OTEL_LOG_CONTENT=1: prompts, tool arguments and outputs are exported too. */
  logContent: boolean;
  /** The exporters' per-request timeout, which also bounds the flush at exit. */
  exportTimeoutMs: number;
  /** How often metrics are exported (OTEL_METRIC_EXPORT_INTERVAL); they are also flushed at exit. */
  metricIntervalMs: number;
  /** W3C `traceparent` of the span that started this process (a subagent's parent tool call). */
  traceparent?: string;
}

export type TelemetryChoice = { on: true; config: TelemetryConfig } | { on: false; problem?: string };

/** Default per-export timeout: short, so a dead collector never holds an exit for long. */
export const DEFAULT_EXPORT_TIMEOUT_MS = 3_000;
const DEFAULT_METRIC_INTERVAL_MS = 60_000;
const TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/**
 * On when an OTLP endpoint is set (the general one or the traces one) and OTEL_SDK_DISABLED is
 * not "true". `grpc` is not supported: it is reported as a problem and export stays off.
 */
export function telemetryChoice(env: Record<string, string | undefined>): TelemetryChoice {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return { on: false };
  const endpoint =
    env.OTEL_EXPORTER_OTLP_ENDPOINT ||
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ||
    env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT;
  if (!endpoint) return { on: false };
  const asked = (env.OTEL_EXPORTER_OTLP_PROTOCOL || "http/protobuf").trim();
  if (asked !== "http/json" && asked !== "http/protobuf")
    return {
      on: false,
      problem: `OTEL_EXPORTER_OTLP_PROTOCOL="${asked}" is not supported (use http/protobuf or http/json); telemetry is off`,
    };
  const traceparent = env.TRACEPARENT?.trim();
  return {
    on: true,
    config: {
      protocol: asked,
      serviceName: env.OTEL_SERVICE_NAME?.trim() || "shard",
      logContent: env.SHARD_OTEL_LOG_CONTENT === "1",
      exportTimeoutMs: positiveInt(env.OTEL_EXPORTER_OTLP_TIMEOUT) ?? DEFAULT_EXPORT_TIMEOUT_MS,
      metricIntervalMs: positiveInt(env.OTEL_METRIC_EXPORT_INTERVAL) ?? DEFAULT_METRIC_INTERVAL_MS,
      ...(traceparent !== undefined && TRACEPARENT.test(traceparent) ? { traceparent } : {}),
    },
  };
}

function positiveInt(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}
