/**
 * The real telemetry, imported only when export is on (telemetry.ts): the official
 * OpenTelemetry SDK with OTLP over HTTP, JSON or protobuf (docs/telemetry.md). Providers are
 * private to Shard, never registered globally, so a library's own instrumentation (a provider
 * SDK that speaks @opentelemetry/api) exports nothing through them and no content leaks that way.
 */
import {
  type Context,
  type Counter,
  type Histogram,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
  type UpDownCounter,
} from "@opentelemetry/api";
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from "@opentelemetry/resources";
import {
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
} from "@opentelemetry/sdk-metrics";
import { BatchSpanProcessor, type SpanExporter, TracerProvider } from "@opentelemetry/sdk-trace";
import type {
  Attributes,
  AttributeValue,
  CounterName,
  HistogramName,
  SpanName,
  Telemetry,
  TelemetrySpan,
  UpDownCounterName,
} from "./telemetry.ts";
import type { TelemetryConfig } from "./telemetry-config.ts";

const SCOPE = "shard";

class OtelSpan implements TelemetrySpan {
  constructor(readonly span: Span) {}
  set(key: string, value: AttributeValue): void {
    this.span.setAttribute(key, value);
  }
  end(errorType?: string): void {
    if (errorType !== undefined) {
      this.span.setAttribute("error.type", errorType);
      this.span.setStatus({ code: SpanStatusCode.ERROR });
    }
    this.span.end();
  }
  traceparent(): string | undefined {
    const { traceId, spanId, traceFlags } = this.span.spanContext();
    return `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, "0")}`;
  }
}

const SPAN_KINDS: Record<SpanName, SpanKind> = {
  "shard.turn": SpanKind.INTERNAL,
  "shard.provider_call": SpanKind.CLIENT,
  "shard.tool_call": SpanKind.INTERNAL,
};

export async function createOtelTelemetry(
  config: TelemetryConfig,
  role: "agent" | "daemon" | "run",
  version: string,
): Promise<Telemetry> {
  const resource = defaultResource()
    .merge(resourceFromAttributes({ "service.name": config.serviceName, "service.version": version }))
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, as every SDK reads them.
    .merge(detectResources({ detectors: [envDetector] }))
    .merge(resourceFromAttributes({ "shard.process": role }));
  const exporterOptions = { timeoutMillis: config.exportTimeoutMs };
  const { spanExporter, metricExporter } = await exportersFor(config, exporterOptions);
  const tracerProvider = new TracerProvider({
    resource,
    spanProcessors: [
      new BatchSpanProcessor({ exporter: spanExporter, exportTimeoutMillis: config.exportTimeoutMs }),
    ],
  });
  const meterProvider = new MeterProvider({
    resource,
    readers: [
      new PeriodicExportingMetricReader({
        exporter: metricExporter,
        exportIntervalMillis: config.metricIntervalMs,
        exportTimeoutMillis: Math.min(config.exportTimeoutMs, config.metricIntervalMs),
      }),
    ],
  });
  const tracer = tracerProvider.getTracer(SCOPE, version);
  const meter = meterProvider.getMeter(SCOPE, version);
  const counters: Record<CounterName, Counter> = {
    "shard.tokens": meter.createCounter("shard.tokens", {
      unit: "{token}",
      description: "Tokens per provider call",
    }),
    "shard.cost": meter.createCounter("shard.cost", {
      unit: "USD",
      description: "Cost of provider calls with a known price",
    }),
    "shard.turns": meter.createCounter("shard.turns", { unit: "{turn}", description: "Turns ended" }),
    "shard.tool_calls": meter.createCounter("shard.tool_calls", {
      unit: "{call}",
      description: "Tool calls ended",
    }),
  };
  const histograms: Record<HistogramName, Histogram> = {
    "shard.permission.wait": meter.createHistogram("shard.permission.wait", {
      unit: "ms",
      description: "Time a tool call waited for a person's permission answer",
    }),
  };
  const upDown: Record<UpDownCounterName, UpDownCounter> = {
    "shard.runtimes.live": meter.createUpDownCounter("shard.runtimes.live", {
      unit: "{runtime}",
      description: "Agent runtimes the daemon has running",
    }),
  };
  const remoteParent = config.traceparent !== undefined ? remoteContext(config.traceparent) : ROOT_CONTEXT;
  let stopped: Promise<void> | undefined;

  return {
    enabled: true,
    logContent: config.logContent,
    span(name: SpanName, attributes: Attributes, parent?: TelemetrySpan): TelemetrySpan {
      const context = parent instanceof OtelSpan ? trace.setSpan(ROOT_CONTEXT, parent.span) : remoteParent;
      return new OtelSpan(tracer.startSpan(name, { kind: SPAN_KINDS[name], attributes }, context));
    },
    count: (name, value, attributes) => counters[name].add(value, attributes),
    record: (name, value, attributes) => histograms[name].record(value, attributes),
    add: (name, value, attributes) => upDown[name].add(value, attributes),
    shutdown() {
      stopped ??= boundedShutdown(
        [tracerProvider.shutdown(), meterProvider.shutdown()],
        config.exportTimeoutMs + 500,
      );
      return stopped;
    },
  };
}

/** Only the exporters of the chosen protocol are loaded. Both read the OTEL_EXPORTER_OTLP_* endpoints and headers. */
async function exportersFor(
  config: TelemetryConfig,
  options: { timeoutMillis: number },
): Promise<{ spanExporter: SpanExporter; metricExporter: PushMetricExporter }> {
  if (config.protocol === "http/json") {
    const [traces, metrics] = await Promise.all([
      import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/exporter-metrics-otlp-http"),
    ]);
    return {
      spanExporter: new traces.OTLPTraceExporter(options),
      metricExporter: new metrics.OTLPMetricExporter(options),
    };
  }
  const [traces, metrics] = await Promise.all([
    import("@opentelemetry/exporter-trace-otlp-proto"),
    import("@opentelemetry/exporter-metrics-otlp-proto"),
  ]);
  return {
    spanExporter: new traces.OTLPTraceExporter(options),
    metricExporter: new metrics.OTLPMetricExporter(options),
  };
}

/** A parent from another process (TRACEPARENT, already checked against the W3C pattern). */
function remoteContext(traceparent: string): Context {
  const [, traceId = "", spanId = "", flags = "00"] = traceparent.split("-");
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  });
}

/** Whatever the collector does (dead, slow, refusing), this settles within `boundMs`. */
function boundedShutdown(work: Promise<unknown>[], boundMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, boundMs);
    timer.unref?.();
    void Promise.allSettled(work).then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
