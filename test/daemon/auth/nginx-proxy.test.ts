/**
 * Real nginx in front of the daemon as the trusted proxy, running docs/WEB-DEPLOYMENT.md's nginx
 * recipe, TLS from a self-signed certificate made here (docs/protocol.md §3.2): the Secure __Host-
 * cookie is issued, the WebSocket connects through the proxy, and a spoofed X-Forwarded-Host is
 * either overwritten by the recipe or, from a proxy that passes it on, refused with 400.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { AuthDaemon } from "./auth-daemon.ts";
import { freePort, type Nginx, startNginx } from "./nginx-proxy.ts";

let d: AuthDaemon;
let nginx: Nginx;
let publicOrigin: string;
let misconfiguredOrigin: string;

beforeAll(async () => {
  const port = freePort();
  const misconfiguredPort = freePort();
  const publicHost = `127.0.0.1:${port}`;
  publicOrigin = `https://${publicHost}`;
  misconfiguredOrigin = `https://127.0.0.1:${misconfiguredPort}`;
  d = await AuthDaemon.start({
    web: {
      mode: "proxy",
      bindHost: "127.0.0.1",
      publicHost,
      allowedOrigins: [publicOrigin],
      trustProxy: "loopback",
      allowInsecureRemote: false,
    },
  });
  nginx = await startNginx({
    port,
    upstreamPort: d.port,
    serverName: "127.0.0.1",
    misconfigured: { port: misconfiguredPort, host: publicHost },
  });
});
afterAll(async () => {
  await nginx?.stop();
  await d?.stop();
});

const post = (
  base: string,
  path: string,
  init: { body?: string; cookie?: string; headers?: Record<string, string> } = {},
) =>
  fetch(`${base}${path}`, {
    method: "POST",
    headers: {
      Origin: publicOrigin,
      "Content-Type": "application/json",
      ...(init.cookie ? { Cookie: init.cookie } : {}),
      ...init.headers,
    },
    body: init.body ?? "",
    tls: { ca: nginx.tls.cert },
  });

test("through nginx: the Secure __Host- cookie, a ticket, and a WebSocket that answers shard.v1", async () => {
  const enrolled = await post(publicOrigin, "/enroll", {
    body: JSON.stringify({ code: await d.mintCode() }),
  });
  expect(enrolled.status).toBe(200);
  const setCookie = enrolled.headers.get("set-cookie") ?? "";
  expect(setCookie).toMatch(/^__Host-shard_session=[A-Za-z0-9_-]{43}; /);
  expect(setCookie.split("; ")).toEqual(
    expect.arrayContaining(["HttpOnly", "SameSite=Strict", "Path=/", "Secure"]),
  );
  const cookie = setCookie.split(";")[0] ?? "";

  const boot = await post(publicOrigin, "/bootstrap", { cookie });
  expect(boot.status).toBe(200);
  expect(boot.headers.get("cache-control")).toBe("no-store");
  const { ticket } = (await boot.json()) as { ticket: string };

  // Bun's WebSocket takes headers and TLS options (see ws-ticket.test.ts for the cast's reason).
  const BunWebSocket = WebSocket as unknown as new (url: string, options: Bun.WebSocketOptions) => WebSocket;
  const ws = new BunWebSocket(`wss://127.0.0.1:${new URL(publicOrigin).port}/ws`, {
    headers: { Origin: publicOrigin },
    protocols: ["shard.v1", `shard.ticket.${ticket}`],
    tls: { ca: nginx.tls.cert },
  });
  const hello = await new Promise<{ type: string }>((resolve, reject) => {
    ws.onmessage = (e) => resolve(JSON.parse(String(e.data)));
    ws.onerror = () => reject(new Error("the WebSocket through nginx did not open"));
  });
  expect(ws.protocol).toBe("shard.v1");
  expect(hello.type).toBe("hello");
  ws.close();

  // The same cookie straight to the daemon, past the proxy, is plain http: refused.
  const direct = await fetch(`http://127.0.0.1:${d.port}/bootstrap`, {
    method: "POST",
    headers: { Host: new URL(publicOrigin).host, Origin: publicOrigin, Cookie: cookie },
  });
  expect(direct.status).toBe(401);
});

test("a spoofed X-Forwarded-Host: the recipe overwrites it; a proxy that passes it on is refused with 400", async () => {
  const spoof = { "X-Forwarded-Host": "evil.example" };
  const viaRecipe = await post(publicOrigin, "/enroll", {
    body: JSON.stringify({ code: await d.mintCode() }),
    headers: spoof,
  });
  expect(viaRecipe.status).toBe(200);
  const code = await d.mintCode();
  const passedOn = await post(misconfiguredOrigin, "/enroll", {
    body: JSON.stringify({ code }),
    headers: spoof,
  });
  expect(passedOn.status).toBe(400);
  expect(passedOn.headers.get("set-cookie")).toBeNull();
  expect(((await passedOn.json()) as { message: string }).message.toLowerCase()).toContain(
    "x-forwarded-host",
  );
  // Without the spoof the same proxy works: the code was not spent by the refusal.
  expect((await post(misconfiguredOrigin, "/enroll", { body: JSON.stringify({ code }) })).status).toBe(200);
});
