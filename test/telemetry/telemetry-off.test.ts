/**
 * With export off, nothing of OpenTelemetry is loaded: a real `shard agent` runs a turn with a
 * tool call and, at exit, its loaded modules (recorded by a preload) hold no @opentelemetry
 * package. The same probe sees the SDK when an endpoint is set, so it can fail.
 */

import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Msg } from "../agent/support/agent-process.ts";
import { tempDir } from "../agent/support/agent-process.ts";
import { useAgentHarness } from "../agent/support/harness.ts";

setDefaultTimeout(60_000);

const { llm, spawn } = useAgentHarness();
const PRELOAD = resolve(import.meta.dir, "support/record-loaded-modules.ts");

/** The modules a `shard agent` had loaded when it exited after one turn with a `bash` call. */
async function modulesAfterTurn(env: Record<string, string>): Promise<string[]> {
  const out = join(tempDir("modules"), "loaded.json");
  llm().enqueue(
    { steps: [{ tool_call: { name: "bash", args: { command: "echo hi" } } }] },
    { steps: [{ text: "ok" }] },
  );
  const agent = await spawn({
    env: { BUN_OPTIONS: `--preload ${PRELOAD}`, SHARD_TEST_LOADED_MODULES: out, ...env },
  });
  agent.send({ type: "prompt", id: "p1", message: "run it" });
  const ask = await agent.waitType("permission_request");
  agent.send({ type: "permission_response", request_id: ask.request_id, decision: "allow" });
  const end = await agent.waitFor((m: Msg) => m.type === "turn_end");
  expect(end.end_reason).toBe("completed");
  expect(await agent.close()).toBe(0);
  const modules: unknown = JSON.parse(readFileSync(out, "utf8"));
  if (!Array.isArray(modules)) throw new Error("the preload wrote no module list");
  return modules.map(String);
}

const otel = (modules: string[]) => modules.filter((m) => m.includes("@opentelemetry"));

describe("telemetry off", () => {
  test("no OTEL_* variables: the turn ran its tool and nothing from @opentelemetry was loaded", async () => {
    const modules = await modulesAfterTurn({});
    // The probe saw the turn machinery and the facade...
    expect(modules.some((m) => m.endsWith("src/agent/turn/tool-runner.ts"))).toBe(true);
    expect(modules.some((m) => m.endsWith("src/telemetry/telemetry.ts"))).toBe(true);
    // ...and neither the real implementation nor any OpenTelemetry package.
    expect(modules.some((m) => m.endsWith("src/telemetry/otel-telemetry.ts"))).toBe(false);
    expect(otel(modules)).toEqual([]);
  });

  test("OTEL_SDK_DISABLED=true wins over an endpoint", async () => {
    const modules = await modulesAfterTurn({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9",
      OTEL_SDK_DISABLED: "true",
    });
    expect(otel(modules)).toEqual([]);
  });

  test("the probe sees the SDK once an endpoint is set (only the chosen protocol's exporters)", async () => {
    const modules = await modulesAfterTurn({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_TIMEOUT: "500",
    });
    const loaded = otel(modules);
    expect(loaded.some((m) => m.includes("@opentelemetry/sdk-trace/"))).toBe(true);
    expect(loaded.some((m) => m.includes("@opentelemetry/exporter-trace-otlp-http/"))).toBe(true);
    expect(loaded.some((m) => m.includes("@opentelemetry/exporter-trace-otlp-proto/"))).toBe(false);
  });
});
