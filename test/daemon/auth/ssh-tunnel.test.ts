/**
 * docs/WEB-DEPLOYMENT.md's SSH-tunnel recipe: a loopback daemon reached through a forwarded
 * port. `ssh -L` is a byte relay whose far end connects from 127.0.0.1, so a TCP relay on this
 * machine stands in for it (ssh itself is not run). Through it, with the browser's Host and
 * Origin of the same port on both ends, enroll, bootstrap and the WebSocket work unchanged; on
 * a different local port the browser's Host names that port and every route refuses it (421).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Socket, TCPSocketListener } from "bun";
import { AuthDaemon, cookieOf } from "./auth-daemon.ts";
import { rawRequest, upgradeHeaders } from "./raw-http.ts";

let d: AuthDaemon;
let relay: TCPSocketListener<RelayData>;

/** One relayed connection: the daemon side, and what the client sent before it was connected. */
interface RelayData {
  upstream?: Socket<undefined>;
  early: Uint8Array[];
}

/** `ssh -L <relay port>:127.0.0.1:<daemon port>`, without ssh: every byte each way, nothing else. */
function startRelay(target: number): TCPSocketListener<RelayData> {
  return Bun.listen<RelayData>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(client) {
        client.data = { early: [] };
        void Bun.connect({
          hostname: "127.0.0.1",
          port: target,
          socket: {
            data: (_s, chunk) => {
              client.write(chunk);
            },
            close: () => {
              client.end();
            },
          },
        }).then((upstream) => {
          for (const chunk of client.data.early) upstream.write(chunk);
          client.data = { upstream, early: [] };
        });
      },
      data(client, chunk) {
        if (client.data.upstream) client.data.upstream.write(chunk);
        else client.data.early.push(new Uint8Array(chunk));
      },
      close(client) {
        client.data.upstream?.end();
      },
    },
  });
}

beforeAll(async () => {
  d = await AuthDaemon.start();
  relay = startRelay(d.port);
});
afterAll(async () => {
  relay.stop(true);
  await d.stop();
});

test("the same port on both ends: enroll, bootstrap and the WebSocket work through the tunnel", async () => {
  const through = (request: Parameters<typeof rawRequest>[1]) => rawRequest(relay.port, request);
  const headers = { Host: d.host, Origin: d.origin };
  const enrolled = await through({
    method: "POST",
    path: "/enroll",
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify({ code: await d.mintCode() }),
  });
  expect(enrolled.status).toBe(200);
  const boot = await through({
    method: "POST",
    path: "/bootstrap",
    headers: { ...headers, Cookie: cookieOf(enrolled) },
    body: "",
  });
  expect(boot.status).toBe(200);
  const ticket = JSON.parse(boot.body).ticket;
  const upgraded = await through({
    path: "/ws",
    headers: upgradeHeaders(d.host, d.origin, `shard.v1, shard.ticket.${ticket}`),
  });
  expect(upgraded.status).toBe(101);
  expect(upgraded.header("sec-websocket-protocol")).toBe("shard.v1");
});

test("another local port (ssh -L 8000:127.0.0.1:7777): the browser's Host names it, and every route says 421", async () => {
  const host = `127.0.0.1:${relay.port}`;
  const origin = `http://${host}`;
  const code = await d.mintCode();
  for (const request of [
    { path: "/", headers: { Host: host } },
    {
      method: "POST",
      path: "/enroll",
      headers: { Host: host, Origin: origin, "Content-Type": "application/json" },
      body: JSON.stringify({ code }),
    },
    { method: "POST", path: "/bootstrap", headers: { Host: host, Origin: origin }, body: "" },
    { path: "/ws", headers: upgradeHeaders(host, origin, "shard.v1") },
  ]) {
    const res = await rawRequest(relay.port, request);
    if (res.status !== 421) throw new Error(`${request.path}: ${res.status} ${res.body}`);
    expect(JSON.parse(res.body).message).toContain(d.host);
  }
  // The refused requests spent nothing: the code still enrolls on the right address.
  expect((await d.enroll(code)).status).toBe(200);
});
