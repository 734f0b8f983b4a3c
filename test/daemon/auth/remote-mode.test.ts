/**
 * Remote mode behind a trusted proxy (docs/protocol.md §3.2): forwarded headers count only from the
 * configured upstream peer; X-Forwarded-Host must equal --public-host (400 otherwise);
 * X-Forwarded-For never counts; the cookie is Secure/__Host- iff the effective scheme is https;
 * the loopback Host and origin are not accepted in remote mode.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MAX_FAILED_REDEMPTIONS } from "../../../src/daemon/auth/enrollment-codes.ts";
import { SCRIPT, shardOnTerminal } from "../../cli/support/shard-cli.ts";
import { decodeTerminalQr } from "../../support/terminal-qr.ts";
import { AuthDaemon, cookieOf } from "./auth-daemon.ts";
import { rawRequest, upgradeHeaders } from "./raw-http.ts";

const PUBLIC_HOST = "shard.test:8443";
const ORIGIN = "https://shard.test:8443";
const OTHER_ORIGIN = "https://other.test:8443";
const HTTPS = { "X-Forwarded-Proto": "https", "X-Forwarded-Host": PUBLIC_HOST };

describe("behind a trusted proxy on loopback", () => {
  let d: AuthDaemon;
  beforeAll(async () => {
    d = await AuthDaemon.start({
      web: {
        mode: "proxy",
        bindHost: "127.0.0.1",
        publicHost: PUBLIC_HOST,
        allowedOrigins: [ORIGIN, OTHER_ORIGIN],
        trustProxy: "loopback",
        allowInsecureRemote: false,
      },
    });
    d.host = PUBLIC_HOST;
    d.origin = ORIGIN;
  });
  afterAll(() => d.stop());

  test("the daemon prints its bound address and the public enrollment URL", () => {
    expect(d.daemon.url).toBe(`http://127.0.0.1:${d.port}`);
    expect(d.daemon.enrollmentUrl).toMatch(/^https:\/\/shard\.test:8443\/#enroll=[A-Za-z0-9_-]{43}$/);
  });

  test.skipIf(SCRIPT === null)("shard auth enroll's QR code holds the public origin", async () => {
    const ran = await shardOnTerminal(["auth", "enroll"], { HOME: d.home, SHARD_HOME: d.home });
    expect(ran.code).toBe(0);
    expect(decodeTerminalQr(ran.stdout)).toMatch(/^https:\/\/shard\.test:8443\/#enroll=[A-Za-z0-9_-]{43}$/);
  });

  test("the loopback Host and the loopback origin are refused: no silent fallback to loopback trust", async () => {
    const code = await d.mintCode();
    expect((await d.enroll(code, { Host: `127.0.0.1:${d.port}`, ...HTTPS })).status).toBe(421);
    expect((await d.enroll(code, { Origin: `http://127.0.0.1:${d.port}`, ...HTTPS })).status).toBe(403);
    expect((await d.enroll(code, HTTPS)).status).toBe(200);
  });

  test("a spoofed X-Forwarded-Host from the trusted peer is refused with 400 on every route", async () => {
    const code = await d.mintCode();
    const spoofed = { ...HTTPS, "X-Forwarded-Host": "evil.example:8443" };
    expect((await d.enroll(code, spoofed)).status).toBe(400);
    expect((await d.bootstrap(undefined, spoofed)).status).toBe(400);
    const ws = await rawRequest(d.port, {
      path: "/ws",
      headers: { ...upgradeHeaders(PUBLIC_HOST, ORIGIN, "shard.v1"), ...spoofed },
    });
    expect(ws.status).toBe(400);
    expect((await d.enroll(code, HTTPS)).status).toBe(200);
  });

  test("https at the proxy: the cookie is __Host- and Secure, and it works only over https", async () => {
    const res = await d.enroll(await d.mintCode(), HTTPS);
    const setCookie = res.header("set-cookie") ?? "";
    expect(setCookie).toMatch(/^__Host-shard_session=/);
    expect(setCookie.split("; ")).toContain("Secure");
    expect(setCookie.split("; ")).toContain("Path=/");
    const cookie = cookieOf(res);
    // The same request without X-Forwarded-Proto is plain http: the Secure cookie is refused.
    expect((await d.bootstrap(cookie, { "X-Forwarded-Host": PUBLIC_HOST })).status).toBe(401);
    expect((await d.bootstrap(cookie, HTTPS)).status).toBe(200);
  });

  test("an https page whose request arrives as plain http gets no cookie at all", async () => {
    const code = await d.mintCode();
    const res = await d.enroll(code, { "X-Forwarded-Host": PUBLIC_HOST });
    expect(res.status).toBe(403);
    expect(res.header("set-cookie")).toBeUndefined();
    expect(JSON.parse(res.body).message).toContain("X-Forwarded-Proto");
    expect((await d.enroll(code, HTTPS)).status).toBe(200);
  });

  test("X-Forwarded-For does not split the rate limit: a flood is one source, the proxy's", async () => {
    const good = await d.mintCode();
    for (let i = 0; i < MAX_FAILED_REDEMPTIONS; i++) {
      const res = await d.enroll(`wrong-${i}`, { ...HTTPS, "X-Forwarded-For": `203.0.113.${i}` });
      expect(res.status).toBe(401);
    }
    const next = await d.enroll(good, { ...HTTPS, "X-Forwarded-For": "198.51.100.1" });
    expect(next.status).toBe(429);
    // The way out for the owner: a code minted now.
    expect((await d.enroll(await d.mintCode(), HTTPS)).status).toBe(200);
  });

  test("a ticket bound to one allowed origin does not open a socket from another", async () => {
    const cookie = await d.enrolledCookie(HTTPS);
    const issued = await d.bootstrap(cookie, HTTPS);
    const ticket = JSON.parse(issued.body).ticket;
    const other = await rawRequest(d.port, {
      path: "/ws",
      headers: { ...upgradeHeaders(PUBLIC_HOST, OTHER_ORIGIN, `shard.v1, shard.ticket.${ticket}`), ...HTTPS },
    });
    expect(other.status).toBe(401);
    // Presented once, it is spent: not even its own origin can use it now.
    const own = await rawRequest(d.port, {
      path: "/ws",
      headers: { ...upgradeHeaders(PUBLIC_HOST, ORIGIN, `shard.v1, shard.ticket.${ticket}`), ...HTTPS },
    });
    expect(own.status).toBe(401);
    const fresh = JSON.parse((await d.bootstrap(cookie, HTTPS)).body).ticket;
    const ok = await rawRequest(d.port, {
      path: "/ws",
      headers: { ...upgradeHeaders(PUBLIC_HOST, ORIGIN, `shard.v1, shard.ticket.${fresh}`), ...HTTPS },
    });
    expect(ok.status).toBe(101);
    expect(ok.header("sec-websocket-protocol")).toBe("shard.v1");
  });
});

describe("forwarded headers from a peer that is not the configured proxy", () => {
  const PLAIN_ORIGIN = "http://shard.test:8443";
  let d: AuthDaemon;
  beforeAll(async () => {
    d = await AuthDaemon.start({
      web: {
        mode: "proxy",
        bindHost: "127.0.0.1",
        publicHost: PUBLIC_HOST,
        allowedOrigins: [ORIGIN, PLAIN_ORIGIN],
        // Not the peer these requests come from (127.0.0.1).
        trustProxy: "10.77.0.1",
        allowInsecureRemote: true,
      },
    });
    d.host = PUBLIC_HOST;
    d.origin = ORIGIN;
  });
  afterAll(() => d.stop());

  test("X-Forwarded-Proto is ignored (the request stays http), even with X-Forwarded-For naming the proxy", async () => {
    const code = await d.mintCode();
    const res = await d.enroll(code, { ...HTTPS, "X-Forwarded-For": "10.77.0.1" });
    expect(res.status).toBe(403);
    expect(res.header("set-cookie")).toBeUndefined();
    const plain = await d.enroll(code, { Origin: PLAIN_ORIGIN, ...HTTPS, "X-Forwarded-For": "10.77.0.1" });
    expect(plain.status).toBe(200);
    expect(plain.header("set-cookie")).toMatch(/^shard_session=/);
    expect((plain.header("set-cookie") ?? "").split("; ")).not.toContain("Secure");
  });

  test("X-Forwarded-Host is ignored too: it neither refuses nor chooses the host", async () => {
    const code = await d.mintCode();
    const spoofed = {
      Origin: PLAIN_ORIGIN,
      "X-Forwarded-Host": "evil.example:8443",
      "X-Forwarded-For": "10.77.0.1",
    };
    expect((await d.enroll(code, { ...spoofed, Host: "evil.example:8443" })).status).toBe(421);
    expect((await d.enroll(code, spoofed)).status).toBe(200);
  });
});

describe("a proxy whose forwarded headers have other names", () => {
  let d: AuthDaemon;
  beforeAll(async () => {
    d = await AuthDaemon.start({
      web: {
        mode: "proxy",
        bindHost: "127.0.0.1",
        publicHost: PUBLIC_HOST,
        allowedOrigins: [ORIGIN],
        trustProxy: "loopback",
        forwardedHeaders: { proto: "x-scheme", host: "x-original-host" },
        allowInsecureRemote: false,
      },
    });
    d.host = PUBLIC_HOST;
    d.origin = ORIGIN;
  });
  afterAll(() => d.stop());

  test("only the configured names count: X-Forwarded-* is then ignored", async () => {
    // X-Forwarded-Proto no longer makes the request https: the https page is refused.
    const plain = await d.enroll(await d.mintCode(), HTTPS);
    expect(plain.status).toBe(403);
    expect(plain.header("set-cookie")).toBeUndefined();
    // X-Forwarded-Host is no longer cross-checked: a spoof in it changes nothing.
    const secure = await d.enroll(await d.mintCode(), {
      "X-Scheme": "https",
      "X-Forwarded-Host": "evil.example",
    });
    expect(secure.status).toBe(200);
    expect(secure.header("set-cookie")).toMatch(/^__Host-shard_session=/);
    const spoofed = await d.enroll(await d.mintCode(), {
      "X-Scheme": "https",
      "X-Original-Host": "evil.example",
    });
    expect(spoofed.status).toBe(400);
  });
});
