/**
 * The ticketed WebSocket upgrade (docs/protocol.md §3.1): `Sec-WebSocket-Protocol: shard.v1,
 * shard.ticket.<t>`, answered with exactly `shard.v1`. 401 for a missing, malformed, oversized,
 * expired, replayed or other-origin ticket; one ticket opens one socket even when two upgrades
 * race. Then the real client path, and revocation closing the open socket.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TICKET_TTL_MS } from "../../../src/daemon/auth/ws-tickets.ts";
import { AuthDaemon, cookieOf } from "./auth-daemon.ts";
import { rawRequest, upgradeHeaders } from "./raw-http.ts";

let now = Date.now();
let d: AuthDaemon;
beforeAll(async () => {
  d = await AuthDaemon.start({ clock: () => now });
});
afterAll(() => d.stop());

const upgrade = (protocols: string | undefined, origin = d.origin) =>
  rawRequest(d.port, { path: "/ws", headers: upgradeHeaders(d.host, origin, protocols) });

describe("refused upgrades", () => {
  test("no ticket, a malformed one, an oversized header, or no shard.v1: 401", async () => {
    const ticket = await d.ticket();
    const offers = [
      undefined,
      "shard.v1",
      "shard.v1, shard.ticket.",
      "shard.v1, shard.ticket.not-a-ticket",
      `shard.v1, shard.ticket.${ticket}x`,
      `shard.v1, shard.ticket.${"A".repeat(43)}`,
      `shard.v1, shard.ticket.${ticket}, shard.ticket.${ticket}`,
      `shard.v1, ${"x".repeat(300)}, shard.ticket.${ticket}`,
      `shard.ticket.${ticket}`,
    ];
    for (const offer of offers) {
      const res = await upgrade(offer);
      if (res.status !== 401) throw new Error(`${offer}: ${res.status} ${res.body}`);
      expect(res.header("sec-websocket-protocol")).toBeUndefined();
    }
  });

  test("an expired ticket: 401", async () => {
    const ticket = await d.ticket();
    now += TICKET_TTL_MS;
    expect((await upgrade(`shard.v1, shard.ticket.${ticket}`)).status).toBe(401);
  });

  test("a replayed ticket: 401 the second time", async () => {
    const ticket = await d.ticket();
    const first = await upgrade(`shard.v1, shard.ticket.${ticket}`);
    expect(first.status).toBe(101);
    expect(first.headers.get("sec-websocket-protocol")).toEqual(["shard.v1"]);
    const second = await upgrade(`shard.v1, shard.ticket.${ticket}`);
    expect(second.status).toBe(401);
  });

  test("a ticket of a browser revoked after it was issued: 401", async () => {
    const enrolled = await d.enroll(await d.mintCode());
    const ticket = JSON.parse((await d.bootstrap(cookieOf(enrolled))).body).ticket;
    await (await d.unix()).ok({ type: "auth.revoke", browser_id: JSON.parse(enrolled.body).browser_id });
    expect((await upgrade(`shard.v1, shard.ticket.${ticket}`)).status).toBe(401);
  });

  test("two parallel upgrades with one ticket: exactly one 101", async () => {
    for (let round = 0; round < 5; round++) {
      const ticket = await d.ticket();
      const results = await Promise.all([
        upgrade(`shard.v1, shard.ticket.${ticket}`),
        upgrade(`shard.v1, shard.ticket.${ticket}`),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([101, 401]);
    }
  });

  test("a WebSocket client cannot manage browsers: auth.* over the WebSocket is PERMISSION_DENIED", async () => {
    const ws = await openSocket(await d.ticket());
    const answers: { command: string; success: boolean; error?: { code: string } }[] = [];
    const got = new Promise<void>((resolve) => {
      ws.onmessage = (e) => {
        const m = JSON.parse(String(e.data));
        if (m.type === "response") answers.push(m);
        if (answers.length === 3) resolve();
      };
    });
    ws.send(JSON.stringify({ type: "auth.enroll", id: "1" }));
    ws.send(JSON.stringify({ type: "auth.list", id: "2" }));
    ws.send(JSON.stringify({ type: "auth.revoke", id: "3", browser_id: "brw_x" }));
    await got;
    for (const a of answers) {
      expect(a.success).toBe(false);
      expect(a.error?.code).toBe("PERMISSION_DENIED");
    }
    ws.close();
  });
});

/**
 * Bun's WebSocket takes `{ headers, protocols }` (bun-types declares it), but with the DOM lib
 * in tsconfig the DOM constructor type hides that overload. The cast states Bun's real signature.
 */
const BunWebSocket = WebSocket as unknown as new (url: string, options: Bun.WebSocketOptions) => WebSocket;

/** A real client: the browser's `new WebSocket(url, ["shard.v1", "shard.ticket.<t>"])` plus its Origin. */
async function openSocket(ticket: string): Promise<WebSocket> {
  const options: Bun.WebSocketOptions = {
    headers: { Origin: d.origin },
    protocols: ["shard.v1", `shard.ticket.${ticket}`],
  };
  const ws = new BunWebSocket(`ws://${d.host}/ws`, options);
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error("the WebSocket did not open"));
  });
  return ws;
}

describe("the client path", () => {
  test("enroll, bootstrap, connect: the daemon answers shard.v1 (never the ticket) and says hello", async () => {
    const ws = await openSocket(await d.ticket());
    expect(ws.protocol).toBe("shard.v1");
    const hello = await new Promise<{ type: string; capabilities: string[] }>((resolve) => {
      ws.onmessage = (e) => resolve(JSON.parse(String(e.data)));
    });
    expect(hello.type).toBe("hello");
    expect(hello.capabilities).toContain("websocket");
    ws.close();
  });

  test("revoking a browser closes its open sockets and leaves the others open", async () => {
    const enrolled = await d.enroll(await d.mintCode());
    const browserId = JSON.parse(enrolled.body).browser_id;
    const cookie = cookieOf(enrolled);
    const ticketOf = async () => JSON.parse((await d.bootstrap(cookie)).body).ticket;
    const revokedA = await openSocket(await ticketOf());
    const revokedB = await openSocket(await ticketOf());
    const other = await openSocket(await d.ticket());
    const closes = [revokedA, revokedB].map(
      (ws) => new Promise<number>((resolve) => ws.addEventListener("close", (e) => resolve(e.code))),
    );
    const unix = await d.unix();
    const data = await unix.ok({ type: "auth.revoke", browser_id: browserId });
    expect(data).toEqual({ browser_id: browserId, closed_connections: 2 });
    // Ended at once, with no close frame (docs/daemon.md): an abnormal closure to the client.
    expect(await Promise.all(closes)).toEqual([1006, 1006]);
    // The other browser's socket still answers (a command's response is the barrier).
    const answer = new Promise<{ success: boolean }>((resolve) => {
      other.onmessage = (e) => {
        const m = JSON.parse(String(e.data));
        if (m.type === "response") resolve(m);
      };
    });
    other.send(JSON.stringify({ type: "agent.list", id: "after-revoke" }));
    expect((await answer).success).toBe(true);
    other.close();
  });
});
