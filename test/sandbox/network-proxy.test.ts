/**
 * The filtering proxy on its own, over its real unix socket: what it forwards, and a clear HTTP
 * error (never a crash) for everything it refuses.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import net from "node:net";
import { join } from "node:path";
import { NetworkProxy, type NetworkProxyLimits } from "../../src/sandbox/network-proxy.ts";
import { makeTempDir } from "../support/temp-dirs.ts";

type Server = ReturnType<typeof Bun.serve>;
let origin: Server;
beforeAll(() => {
  origin = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) =>
      new Response(
        JSON.stringify({
          url: req.url,
          proxyAuthorization: req.headers.get("proxy-authorization"),
          custom: req.headers.get("x-custom"),
        }),
      ),
  });
});
const proxies: NetworkProxy[] = [];
afterAll(() => {
  origin.stop(true);
  for (const proxy of proxies) proxy.close();
});

function startProxy(allow: string[], limits: Partial<NetworkProxyLimits> = {}): NetworkProxy {
  const listened = NetworkProxy.listen(join(makeTempDir("shard-proxy-"), "proxy.sock"), allow, limits);
  if (!listened.ok) throw new Error(listened.error.message);
  proxies.push(listened.proxy);
  return listened.proxy;
}

/** Sends raw bytes and reads until the proxy closes the connection. */
function exchange(proxy: NetworkProxy, ...chunks: (string | Buffer)[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(proxy.socketPath);
    let answer = "";
    socket.on("connect", () => {
      for (const chunk of chunks) socket.write(chunk);
    });
    socket.on("data", (data) => {
      answer += data.toString("latin1");
    });
    socket.on("error", (error) => (answer === "" ? reject(error) : resolve(answer)));
    socket.on("close", () => resolve(answer));
  });
}

const statusLine = (answer: string): string => answer.slice(0, answer.indexOf("\r\n"));
const body = (answer: string): string => answer.slice(answer.indexOf("\r\n\r\n") + 4);

describe("the sandbox's filtering proxy", () => {
  test("forwards an absolute-form request to an allowed host without the proxy's own headers", async () => {
    const proxy = startProxy(["localhost"]);
    const answer = await exchange(
      proxy,
      `GET http://localhost:${origin.port}/a?b=1 HTTP/1.1\r\nHost: localhost:${origin.port}\r\n` +
        "Proxy-Authorization: Basic c2VjcmV0\r\nProxy-Connection: keep-alive\r\nX-Custom: kept\r\n\r\n",
    );
    expect(statusLine(answer)).toBe("HTTP/1.1 200 OK");
    expect(JSON.parse(body(answer))).toEqual({
      url: `http://localhost:${origin.port}/a?b=1`,
      proxyAuthorization: null,
      custom: "kept",
    });
  });

  test("refuses a host not on the list with 403 and says what is allowed (negative)", async () => {
    const proxy = startProxy(["localhost", "*.example.com"]);
    for (const request of [
      `GET http://127.0.0.1:${origin.port}/ HTTP/1.1\r\n\r\n`,
      `CONNECT 127.0.0.1:${origin.port} HTTP/1.1\r\n\r\n`,
    ]) {
      const answer = await exchange(proxy, request);
      expect(statusLine(answer)).toBe("HTTP/1.1 403 Forbidden");
      expect(body(answer)).toBe(
        "blocked by the Shard sandbox's network allowlist: 127.0.0.1; allowed: localhost, *.example.com\n",
      );
    }
  });

  test("tunnels a CONNECT to an allowed host, bytes sent with the head included", async () => {
    const proxy = startProxy(["localhost"]);
    const answer = await exchange(
      proxy,
      `CONNECT localhost:${origin.port} HTTP/1.1\r\nHost: localhost\r\n\r\n` +
        "GET /t HTTP/1.1\r\nHost: tunnelled\r\nConnection: close\r\n\r\n",
    );
    expect(answer).toStartWith("HTTP/1.1 200 Connection Established\r\n\r\nHTTP/1.1 200 OK\r\n");
    expect(answer).toContain('"url":"http://tunnelled/t"');
  });

  test("answers bad and oversized requests with a clear error, and keeps serving (negative)", async () => {
    const proxy = startProxy(["localhost"], { maxHeadBytes: 1024 });
    const cases: [string | Buffer, string, string][] = [
      ["hello\r\n\r\n", "400 Bad Request", "malformed request line: hello"],
      [
        "GET / HTTP/1.1\r\nHost: x\r\n\r\n",
        "400 Bad Request",
        "this is a proxy: a request names an absolute http:// URL (got /)",
      ],
      [
        "GET https://localhost/ HTTP/1.1\r\n\r\n",
        "400 Bad Request",
        "https:// goes through a CONNECT tunnel",
      ],
      ["CONNECT localhost HTTP/1.1\r\n\r\n", "400 Bad Request", "CONNECT needs host:port, got: localhost"],
      ["CONNECT localhost:99999 HTTP/1.1\r\n\r\n", "400 Bad Request", "CONNECT needs host:port"],
      [
        "GET http://localhost/ HTTP/2.0\r\n\r\n",
        "505 HTTP Version Not Supported",
        "unsupported HTTP version",
      ],
      [
        "GET http://localhost/ HTTP/1.1\r\nbad header\r\n\r\n",
        "400 Bad Request",
        "malformed header line: bad header",
      ],
      ["GET http://u:p@localhost/ HTTP/1.1\r\n\r\n", "400 Bad Request", "credentials in a proxied URL"],
      [Buffer.from([0xff, 0x00, 0x0d, 0x0a, 0x0d, 0x0a]), "400 Bad Request", "malformed request line: ??"],
      [
        `GET http://localhost/ HTTP/1.1\r\nX-Big: ${"a".repeat(2000)}\r\n\r\n`,
        "431 Request Header Fields Too Large",
        "larger than 1024 bytes",
      ],
      // No blank line ever: refused once the cap is passed, not buffered without end.
      ["x".repeat(5000), "431 Request Header Fields Too Large", "larger than 1024 bytes"],
    ];
    for (const [request, status, message] of cases) {
      const answer = await exchange(proxy, request);
      expect(statusLine(answer)).toBe(`HTTP/1.1 ${status}`);
      expect(body(answer)).toContain(message);
    }
    const after = await exchange(
      proxy,
      `GET http://localhost:${origin.port}/ok HTTP/1.1\r\nHost: localhost\r\n\r\n`,
    );
    expect(statusLine(after)).toBe("HTTP/1.1 200 OK");
  });

  test("an allowed host that does not answer is a 502 naming it", async () => {
    const proxy = startProxy(["localhost"]);
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = closed.port;
    closed.stop(true);
    const answer = await exchange(proxy, `CONNECT localhost:${port} HTTP/1.1\r\n\r\n`);
    expect(statusLine(answer)).toBe("HTTP/1.1 502 Bad Gateway");
    expect(body(answer)).toStartWith(`could not reach localhost:${port}: `);
  });

  test("a client that never finishes its head gets 408; one past the connection cap gets 503", async () => {
    const slow = startProxy(["localhost"], { headTimeoutMs: 50 });
    const timedOut = await exchange(slow, "GET http://localhost/ HTTP/1.1\r\n");
    expect(statusLine(timedOut)).toBe("HTTP/1.1 408 Request Timeout");

    const capped = startProxy(["localhost"], { maxConnections: 1 });
    const holder = net.connect(capped.socketPath);
    await new Promise((resolve) => holder.once("connect", resolve));
    const refused = await exchange(capped, `GET http://localhost:${origin.port}/ HTTP/1.1\r\n\r\n`);
    expect(statusLine(refused)).toBe("HTTP/1.1 503 Service Unavailable");
    expect(body(refused)).toBe("the sandbox's network proxy has 1 connections open already\n");
    holder.destroy();
  });
});
