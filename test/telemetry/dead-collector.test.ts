/**
 * A collector that takes the connection and never answers neither slows the turn nor holds the
 * exit: the export is cut at OTEL_EXPORTER_OTLP_TIMEOUT and the agent exits on its own (exit code
 * 0), well inside the harness's 10 s kill.
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import type { Msg } from "../agent/support/agent-process.ts";
import { useAgentHarness } from "../agent/support/harness.ts";

setDefaultTimeout(60_000);

const { llm, spawn } = useAgentHarness();
let stop: (() => void) | undefined;
afterEach(() => stop?.());

test("a collector that never answers: the turn completes and the agent still exits cleanly", async () => {
  let received = 0;
  let arrived!: () => void;
  const firstRequest = new Promise<void>((r) => {
    arrived = r;
  });
  const hang = new Promise<Response>(() => {});
  const blackhole = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch() {
      received += 1;
      arrived();
      return hang;
    },
  });
  stop = () => blackhole.stop(true);
  llm().enqueue({ steps: [{ text: "hello" }] });
  const agent = await spawn({
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${blackhole.port}`,
      OTEL_EXPORTER_OTLP_TIMEOUT: "1000",
    },
  });
  agent.send({ type: "prompt", id: "p1", message: "hi" });
  const end = await agent.waitFor((m: Msg) => m.type === "turn_end");
  expect(end.end_reason).toBe("completed");
  const exited = agent.close();
  // The flush at exit did reach the dead collector...
  await firstRequest;
  expect(received).toBeGreaterThan(0);
  // ...and the agent exited by itself, not by the harness's SIGKILL.
  expect(await exited).toBe(0);
  expect(agent.proc.signalCode).toBeNull();
});
