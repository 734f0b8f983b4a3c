/**
 * DNS rebinding and cross-origin requests (docs/protocol.md §3.1, docs/architecture.md §10.6):
 * every route checks the Host exactly, the POST routes and the upgrade check the Origin exactly,
 * and no response carries a CORS header. Negative first: each attack is shown to fail.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../agent/support/agent-process.ts";
import { AuthDaemon } from "./auth-daemon.ts";
import { type RawResponse, rawRequest, upgradeHeaders } from "./raw-http.ts";

let d: AuthDaemon;
beforeAll(async () => {
  // A web client of one page, so the page and a missing asset answer as in a real install.
  const webDir = tempDir("web");
  writeFileSync(join(webDir, "index.html"), "<!doctype html><title>Shard</title>");
  d = await AuthDaemon.start({ webDir });
});
afterAll(() => d.stop());

const badHosts = (port: number): [string, string | undefined][] => [
  ["a DNS-rebinding name", `127.0.0.1.nip.io:${port}`],
  ["localhost with a trailing dot", `localhost.:${port}`],
  ["localhost", `localhost:${port}`],
  ["0.0.0.0", `0.0.0.0:${port}`],
  ["an IPv4-mapped IPv6 spelling", `[::ffff:127.0.0.1]:${port}`],
  ["IPv6 loopback", `[::1]:${port}`],
  ["another port", `127.0.0.1:${port + 1}`],
  ["no port", "127.0.0.1"],
  ["a suffix", `127.0.0.1:${port}.evil.com`],
  ["no Host at all", undefined],
];

function expectSecurityHeaders(res: RawResponse): void {
  expect(res.header("content-security-policy")).toContain("frame-ancestors 'none'");
  expect(res.header("x-frame-options")).toBe("DENY");
  expect(res.header("x-content-type-options")).toBe("nosniff");
  expect(res.header("referrer-policy")).toBe("no-referrer");
  for (const name of res.headers.keys()) expect(name.startsWith("access-control-")).toBe(false);
}

describe("Host", () => {
  test("every route refuses a Host that is not exactly 127.0.0.1:<port>", async () => {
    const code = d.firstCode();
    for (const [what, host] of badHosts(d.port)) {
      const requests = [
        { method: "GET", path: "/", headers: { Host: host } },
        { method: "GET", path: "/app.js", headers: { Host: host } },
        {
          method: "POST",
          path: "/enroll",
          headers: { Host: host, Origin: d.origin, "Content-Type": "application/json" },
          body: JSON.stringify({ code }),
        },
        { method: "POST", path: "/bootstrap", headers: { Host: host, Origin: d.origin }, body: "" },
        { method: "GET", path: "/ws", headers: upgradeHeaders(host, d.origin, "shard.v1") },
      ];
      for (const request of requests) {
        const res = await rawRequest(d.port, request);
        // Without any Host, Bun's HTTP/1.1 parser answers 400 before the app is reached.
        const expected = host === undefined ? 400 : 421;
        if (res.status !== expected) throw new Error(`${what} ${request.path}: ${res.status} ${res.body}`);
        expect(res.header("set-cookie")).toBeUndefined();
        if (expected === 421) expectSecurityHeaders(res);
      }
    }
    // The code was never redeemed by a refused request: it still enrolls.
    expect((await d.enroll(code)).status).toBe(200);
  });

  test("an HTTP/1.0 request without Host reaches the daemon (HTTP/1.0 allows it) and gets 421 on every route", async () => {
    for (const request of [
      { method: "GET", path: "/", headers: {} },
      {
        method: "POST",
        path: "/enroll",
        headers: { Origin: d.origin, "Content-Type": "application/json" },
        body: JSON.stringify({ code: d.firstCode() }),
      },
      { method: "POST", path: "/bootstrap", headers: { Origin: d.origin }, body: "" },
      { method: "GET", path: "/ws", headers: upgradeHeaders(undefined, d.origin, "shard.v1") },
    ]) {
      const res = await rawRequest(d.port, { ...request, httpVersion: "1.0" });
      if (res.status !== 421) throw new Error(`${request.path}: ${res.status} ${res.body}`);
      expectSecurityHeaders(res);
    }
  });

  test("the right Host passes: the page and even a 404 carry the security headers and no CORS header", async () => {
    const page = await rawRequest(d.port, {
      path: "/",
      headers: { Host: d.host, Origin: "https://evil.example" },
    });
    expect(page.status).toBe(200);
    expectSecurityHeaders(page);
    const res = await rawRequest(d.port, {
      path: "/nothing-here.js",
      headers: { Host: d.host, Origin: "https://evil.example" },
    });
    expect(res.status).toBe(404);
    expectSecurityHeaders(res);
    const post = await rawRequest(d.port, {
      method: "POST",
      path: "/nothing-here",
      headers: { Host: d.host, Origin: "https://evil.example" },
    });
    expect(post.status).toBe(404);
    expectSecurityHeaders(post);
    const preflight = await rawRequest(d.port, {
      method: "OPTIONS",
      path: "/bootstrap",
      headers: { Host: d.host, Origin: "https://evil.example", "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.status).toBeGreaterThanOrEqual(400);
    expectSecurityHeaders(preflight);
  });
});

const badOrigins = (port: number): [string, string | undefined][] => [
  ["missing", undefined],
  ["null", "null"],
  ["a look-alike suffix", `http://127.0.0.1:${port}.evil.com`],
  ["another site", "https://evil.example"],
  ["another port", `http://127.0.0.1:${port + 1}`],
  ["https instead of http", `https://127.0.0.1:${port}`],
  ["a trailing slash", `http://127.0.0.1:${port}/`],
  ["localhost", `http://localhost:${port}`],
  ["upper case", `HTTP://127.0.0.1:${port}`],
];

describe("Origin", () => {
  test("POST /enroll refuses every Origin but the daemon's own, and the code survives", async () => {
    const code = await d.mintCode();
    for (const [what, origin] of badOrigins(d.port)) {
      const res = await d.enroll(code, { Origin: origin });
      if (res.status !== 403) throw new Error(`${what}: ${res.status} ${res.body}`);
      expect(res.header("set-cookie")).toBeUndefined();
      expectSecurityHeaders(res);
    }
    expect((await d.enroll(code)).status).toBe(200);
  });

  test("POST /bootstrap refuses a cross-origin request even with a valid cookie", async () => {
    const cookie = await d.enrolledCookie();
    for (const [what, origin] of badOrigins(d.port)) {
      const res = await d.bootstrap(cookie, { Origin: origin });
      if (res.status !== 403) throw new Error(`${what}: ${res.status} ${res.body}`);
      expect(res.body).not.toContain('ticket"');
    }
    expect((await d.bootstrap(cookie)).status).toBe(200);
  });

  test("the upgrade answers 400 to a missing or disallowed Origin, even with a valid ticket", async () => {
    for (const [what, origin] of badOrigins(d.port)) {
      const ticket = await d.ticket();
      const res = await rawRequest(d.port, {
        path: "/ws",
        headers: upgradeHeaders(d.host, origin, `shard.v1, shard.ticket.${ticket}`),
      });
      if (res.status !== 400) throw new Error(`${what}: ${res.status} ${res.body}`);
      expect(res.header("sec-websocket-protocol")).toBeUndefined();
    }
  });
});
