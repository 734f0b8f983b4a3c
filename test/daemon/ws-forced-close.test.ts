/**
 * The daemon really closes a WebSocket it ends (docs/daemon.md): a revoked browser's, and one
 * over the outbound cap. The client here never answers a close frame and never closes its own
 * side, so only the daemon closing the TCP connection ends it. The daemons run with a long
 * idle timeout, so Bun's own timeout after a close() (16 s then) cannot end the connection
 * before these tests give up on it (10 s, however long the rest of the test took).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { MockStep } from "../support/mock-llm/types.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { AuthDaemon, cookieOf } from "./auth/auth-daemon.ts";
import { useDaemonHarnesses } from "./support/daemon-harness.ts";
import { RawWebSocket } from "./support/raw-websocket.ts";

const LONG_IDLE_S = 240;
const GIVE_UP_MS = 10_000;

/** `closed`, or a failure naming what did not happen once GIVE_UP_MS have passed. */
function closedWithin(ws: RawWebSocket): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const giveUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("the daemon kept the TCP connection open")), GIVE_UP_MS);
  });
  return Promise.race([ws.closed, giveUp]).finally(() => clearTimeout(timer));
}
const llm = useMockLlmServer();
const startHarness = useDaemonHarnesses(llm);

describe("a client that never answers the close", () => {
  test(
    "revoking its browser closes its TCP connection",
    async () => {
      const d = await AuthDaemon.start({ wsIdleTimeoutS: LONG_IDLE_S });
      try {
        const enrolled = await d.enroll(await d.mintCode());
        const browserId = JSON.parse(enrolled.body).browser_id;
        const ticket = JSON.parse((await d.bootstrap(cookieOf(enrolled))).body).ticket;
        const ws = await RawWebSocket.connect(d.port, {
          Host: d.host,
          Origin: d.origin,
          "Sec-WebSocket-Protocol": `shard.v1, shard.ticket.${ticket}`,
        });
        await ws.waitFor('"hello"');
        const unix = await d.unix();
        expect(await unix.ok({ type: "auth.revoke", browser_id: browserId })).toEqual({
          browser_id: browserId,
          closed_connections: 1,
        });
        await closedWithin(ws);
      } finally {
        await d.stop();
      }
    },
    { timeout: 30_000 },
  );

  test(
    "going over the outbound cap closes its TCP connection",
    async () => {
      const harness = await startHarness({ outboundCapBytes: 1024 * 1024, wsIdleTimeoutS: LONG_IDLE_S });
      const fast = await harness.unixClient();
      const agentId = await harness.createAgent(fast);
      await fast.ok({ type: "agent.attach", agent_id: agentId });
      const ws = await RawWebSocket.connect(harness.daemon.port, {
        Host: `127.0.0.1:${harness.daemon.port}`,
      });
      ws.sendText(
        JSON.stringify({ type: "agent.attach", id: "raw-attach", agent_id: agentId, role: "observer" }),
      );
      await ws.waitFor('"raw-attach"');
      ws.stopReading();

      // More than the kernel's buffers and the cap hold (see slow-client.test.ts).
      const piece = "x".repeat(10_000);
      const steps: MockStep[] = [];
      for (let i = 0; i < 900; i++) steps.push({ text: piece, chunks: 10 }, { delay_ms: 2 });
      llm().enqueue({ steps });
      const from = fast.messages.length;
      await fast.ok({ type: "prompt", agent_id: agentId, message: "flood" });
      // 9 MB of deltas: on a loaded machine the turn can outlast the client's default 20 s wait.
      await fast.waitFor((m) => m.type === "turn_end" && m.agent_id === agentId, from, 90_000);
      expect(readFileSync(join(harness.home, "logs", "daemon.log"), "utf8")).toContain("outbound cap");

      // It reads again, but still never answers: the daemon's side must be gone all the same.
      ws.resumeReading();
      await closedWithin(ws);
      expect(ws.received).toBeLessThan(piece.length * 900);
    },
    { timeout: 60_000 },
  );
});
