/** Which environments turn export on, and with what (src/telemetry/telemetry-config.ts). */
import { describe, expect, test } from "bun:test";
import { DEFAULT_EXPORT_TIMEOUT_MS, telemetryChoice } from "../../src/telemetry/telemetry-config.ts";

const ENDPOINT = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" };

describe("telemetryChoice", () => {
  test("off without an endpoint, whatever else is set", () => {
    expect(telemetryChoice({})).toEqual({ on: false });
    expect(telemetryChoice({ OTEL_SERVICE_NAME: "x", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })).toEqual({
      on: false,
    });
  });

  test("an endpoint turns it on with protobuf, service shard and content off", () => {
    const choice = telemetryChoice(ENDPOINT);
    expect(choice).toEqual({
      on: true,
      config: {
        protocol: "http/protobuf",
        serviceName: "shard",
        logContent: false,
        exportTimeoutMs: DEFAULT_EXPORT_TIMEOUT_MS,
        metricIntervalMs: 60_000,
      },
    });
  });

  test("the traces endpoint alone is enough; OTEL_SDK_DISABLED=true wins", () => {
    expect(telemetryChoice({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://h/v1/traces" }).on).toBe(true);
    expect(telemetryChoice({ ...ENDPOINT, OTEL_SDK_DISABLED: "TRUE" })).toEqual({ on: false });
    expect(telemetryChoice({ ...ENDPOINT, OTEL_SDK_DISABLED: "false" }).on).toBe(true);
  });

  test("grpc (or anything unknown) leaves it off, saying why", () => {
    const choice = telemetryChoice({ ...ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" });
    expect(choice.on).toBe(false);
    expect(choice.on === false && choice.problem).toContain('"grpc" is not supported');
  });

  test("content only with exactly SHARD_OTEL_LOG_CONTENT=1", () => {
    const on = (v: string) => {
      const c = telemetryChoice({ ...ENDPOINT, SHARD_OTEL_LOG_CONTENT: v });
      return c.on && c.config.logContent;
    };
    expect(on("1")).toBe(true);
    for (const v of ["0", "true", "yes", ""]) expect(on(v)).toBe(false);
  });

  test("timeouts and TRACEPARENT are taken only when well formed", () => {
    const tp = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const c = telemetryChoice({
      ...ENDPOINT,
      OTEL_EXPORTER_OTLP_TIMEOUT: "1500",
      OTEL_METRIC_EXPORT_INTERVAL: "oops",
      TRACEPARENT: tp,
      OTEL_SERVICE_NAME: "team",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    });
    expect(c).toEqual({
      on: true,
      config: {
        protocol: "http/json",
        serviceName: "team",
        logContent: false,
        exportTimeoutMs: 1500,
        metricIntervalMs: 60_000,
        traceparent: tp,
      },
    });
    const bad = telemetryChoice({ ...ENDPOINT, TRACEPARENT: "01-zz-not-a-traceparent" });
    expect(bad.on && bad.config.traceparent).toBeUndefined();
  });
});
