/**
 * Bad input on both transports gets INVALID_REQUEST and the connection carries on
 * (docs/architecture.md §5.7); the WebSocket refuses every upgrade unless an authenticator says
 * yes.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { refuseEveryUpgrade } from "../../src/daemon/auth/authenticator.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import type { DaemonClient } from "./support/daemon-client.ts";
import { type DaemonHarness, useDaemonHarnesses } from "./support/daemon-harness.ts";

setDefaultTimeout(30_000);

const llm = useMockLlmServer();
let harness: DaemonHarness | undefined;
const startHarness = useDaemonHarnesses(llm);

const LIMIT = 4096;

/** Sends raw input and returns the next response, which must be INVALID_REQUEST. */
async function rejected(client: DaemonClient, send: () => void): Promise<string> {
  const from = client.messages.length;
  send();
  const res = await client.waitType("response", from);
  expect(res.success).toBe(false);
  expect(res.error.code).toBe("INVALID_REQUEST");
  return res.error.message;
}

async function stillServes(client: DaemonClient): Promise<void> {
  expect(await client.ok({ type: "agent.list" })).toEqual({ agents: [] });
}

for (const transport of ["unix", "websocket"] as const) {
  describe(`malformed input over ${transport}`, () => {
    const frame = (client: DaemonClient, text: string) => () =>
      client.sendRaw(transport === "unix" ? `${text}\n` : text);

    test("bad JSON, non-objects, unknown types and over-size messages; the connection carries on", async () => {
      harness = await startHarness({ maxMessageBytes: LIMIT });
      const c = await harness.client(transport);
      expect(await rejected(c, frame(c, '{"type": "agent.list", '))).toContain("bad JSON");
      await stillServes(c);
      expect(await rejected(c, frame(c, "[1, 2, 3]"))).toContain("JSON object");
      expect(await rejected(c, frame(c, '{"type":"no.such.command","id":"x"}'))).toContain("no.such.command");
      // An event is not a command.
      expect(await rejected(c, frame(c, '{"type":"sync","id":"y"}'))).toContain("sync");
      const huge = JSON.stringify({ type: "agent.list", id: "big", pad: "x".repeat(LIMIT + 100) });
      expect(await rejected(c, frame(c, huge))).toContain(`${LIMIT}-byte limit`);
      const invalid = await c.request({ type: "agent.create", cwd: 42 });
      expect(invalid.error.code).toBe("INVALID_REQUEST");
      expect(invalid.error.message).toContain("cwd");
      await stillServes(c);
    });

    test("a per-agent command without agent_id or attachment is NOT_ATTACHED", async () => {
      harness = await startHarness();
      const c = await harness.client(transport);
      const res = await c.request({ type: "prompt", message: "hello" });
      expect(res.error.code).toBe("NOT_ATTACHED");
      const agentId = await harness.createAgent(c);
      const notAttached = await c.request({ type: "list_modes", agent_id: agentId });
      expect(notAttached.error.code).toBe("NOT_ATTACHED");
      expect(notAttached.agent_id).toBe(agentId);
    });
  });
}

describe("WebSocket specifics", () => {
  test("a binary frame gets INVALID_REQUEST and the connection carries on", async () => {
    harness = await startHarness();
    const c = await harness.wsClient();
    expect(
      await rejected(c, () => c.sendBinary(new TextEncoder().encode('{"type":"agent.list","id":"b"}'))),
    ).toContain("binary");
    await stillServes(c);
  });

  test("without an authenticator that says yes, every upgrade is refused with 401", async () => {
    harness = await startHarness({ authenticator: refuseEveryUpgrade });
    const res = await fetch(`${harness.daemon.url}/ws`, {
      headers: {
        Upgrade: "websocket",
        Connection: "Upgrade",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version": "13",
      },
    });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain("unix socket");
  });
});
