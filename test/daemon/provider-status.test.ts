/**
 * `provider.status`: the daemon tells a client whether the agents it starts have a model
 * provider — configured by models.json, found on a local OpenAI-compatible server, or nothing
 * at all (then the message lists every way to add one, with this home's models.json path).
 */
import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import type { DaemonClient } from "./support/daemon-client.ts";
import { DaemonProcess } from "./support/daemon-harness.ts";

const llm = useMockLlmServer();
const running: { daemon: DaemonProcess; client: DaemonClient }[] = [];
afterEach(async () => {
  for (const { daemon, client } of running.splice(0)) {
    client.close();
    await daemon.stop();
  }
});

async function statusOf(home: string, env: Record<string, string>) {
  const daemon = new DaemonProcess(home, ["--port", "0"], ["daemon"], { env });
  await daemon.url();
  const client = await daemon.client();
  running.push({ daemon, client });
  return client.ok({ type: "provider.status" });
}

test("nothing configured: source none, and the message names the keys, OPENAI_BASE_URL and models.json", async () => {
  const home = tempDir("home");
  const status = await statusOf(home, { SHARD_DISCOVER_PORTS: "1" });
  expect(status.source).toBe("none");
  expect(status.models_file).toBe(join(home, "models.json"));
  expect(status.env_vars).toContain("ANTHROPIC_API_KEY");
  for (const way of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL", join(home, "models.json")])
    expect(status.message).toContain(way);
  expect(status.message).toContain("No local server answered on 127.0.0.1:1");
  expect(status.local_server).toBeUndefined();
});

test("a local OpenAI-compatible server on a probed port is what new agents use", async () => {
  const port = new URL(llm().url).port;
  const status = await statusOf(tempDir("home"), { SHARD_DISCOVER_PORTS: `1,${port}` });
  expect(status.source).toBe("local_server");
  expect(status.local_server.base_url).toBe(`http://127.0.0.1:${port}/v1`);
  expect(status.local_server.model).toStartWith("openai/");
  expect(status.message).toContain(status.local_server.base_url);
});

test("a models.json with models and a configuring variable each count as configured", async () => {
  const fromFile = await statusOf(mockHome(llm().url), { SHARD_DISCOVER_PORTS: "1" });
  expect(fromFile.source).toBe("models_file");
  const fromEnv = await statusOf(tempDir("home"), { SHARD_DISCOVER_PORTS: "1", OPENAI_API_KEY: "k" });
  expect(fromEnv.source).toBe("environment");
  expect(fromEnv.message).toBe("Configured by OPENAI_API_KEY.");
  expect(JSON.stringify(fromEnv)).not.toContain('"k"');
});
