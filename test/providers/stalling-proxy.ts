/**
 * A proxy in front of the mock LLM server that can make the next requests hang the way a
 * stuck server does, until the test releases them:
 *
 * - "silent": accept the request and never answer (no status line);
 * - "headers": answer 200 with SSE headers and a comment line, then send nothing;
 * - { cutAfter }: stream the real reply up to the end of the SSE frame that contains
 *   `cutAfter`, then stall.
 *
 * Requests without a hold are forwarded unchanged.
 */
export type Hold = "silent" | "headers" | { cutAfter: string };

export interface StallingProxy {
  /** Base URL as the mock server's (`http://127.0.0.1:PORT`, no /v1). */
  url: string;
  /** The next request (FIFO) is held this way. */
  hold(...holds: Hold[]): void;
  /** Paths of every request received. */
  paths: string[];
  /** Resolves once `n` requests are being held. */
  waitForHeld(n: number): Promise<void>;
  /** Ends every held request (the client has usually given up by then) and drops unused holds. */
  reset(): void;
  close(): Promise<void>;
}

const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache" };

export function startStallingProxy(upstream: string): StallingProxy {
  const holds: Hold[] = [];
  const paths: string[] = [];
  const releases: (() => void)[] = [];
  let heldCount = 0;
  const waiters: { n: number; resolve: () => void }[] = [];

  const held = (release: () => void) => {
    releases.push(release);
    heldCount++;
    for (const w of waiters.splice(0)) {
      if (heldCount >= w.n) w.resolve();
      else waiters.push(w);
    }
  };

  /** A body that sends `prefix` and then nothing until released. */
  const stalledBody = (prefix: string) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        if (prefix) controller.enqueue(new TextEncoder().encode(prefix));
        held(() => {
          try {
            controller.close();
          } catch {
            // the client already cancelled the stream
          }
        });
      },
    });

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      paths.push(url.pathname);
      const hold = holds.shift();
      if (hold === "silent") {
        await new Promise<void>((resolve) => held(resolve));
        return new Response("released", { status: 500 });
      }
      // Bun sends the headers with the first body bytes: a keep-alive comment, no event.
      if (hold === "headers") return new Response(stalledBody(": waiting\n\n"), { headers: SSE_HEADERS });
      const forwarded = await fetch(`${upstream}${url.pathname}${url.search}`, {
        method: req.method,
        headers: req.headers,
        body: req.method === "GET" ? undefined : await req.text(),
      });
      if (hold === undefined) return forwarded;
      const text = await forwarded.text();
      const at = text.indexOf(hold.cutAfter);
      if (at < 0) throw new Error(`stalling proxy: ${JSON.stringify(hold.cutAfter)} not in the reply`);
      const frameEnd = text.indexOf("\n\n", at);
      return new Response(stalledBody(text.slice(0, frameEnd + 2)), {
        status: forwarded.status,
        headers: SSE_HEADERS,
      });
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}`,
    paths,
    hold(...more) {
      holds.push(...more);
    },
    waitForHeld(n) {
      if (heldCount >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    reset() {
      holds.length = 0;
      heldCount = 0;
      for (const release of releases.splice(0)) release();
    },
    async close() {
      for (const release of releases.splice(0)) release();
      await server.stop(true);
    },
  };
}
