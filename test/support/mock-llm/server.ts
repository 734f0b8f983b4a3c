/**
 * A real local HTTP server speaking the streaming wire formats of the Anthropic Messages,
 * OpenAI Chat Completions and OpenAI Responses APIs, driven by a queue of scripted replies.
 * Paths are accepted with or without the `/v1` prefix.
 *
 * Holds: a reply step `{ hold: "name" }` sends everything before it, then waits until the test
 * calls `server.release("name")` (`await server.waitForHold("name")` first to know it is there):
 *   server.enqueue({ steps: [{ text: "Looking." }, { hold: "mid" }, { tool_call: … }] });
 *   … await server.waitForHold("mid"); send a steer; server.release("mid"); …
 * Use a hold, never a delay, when a test must act while a stream is open. Holds never leak:
 * `close()` cuts every held stream, a client that disconnects ends its hold, and a hold not
 * released within `holdTimeoutMs` (default 20 s; per step `timeout_ms`) cuts its stream and
 * says so on stderr. A server in another process (main.ts) is driven over HTTP:
 *   POST /_mock/release/<name>  → {"released": n}
 *   GET  /_mock/held/<name>     → 200 {"held": name} once a stream waits there, 408 after
 *                                 `?timeout_ms=` (default 10000)
 * Control requests are neither counted nor recorded in `requests`.
 */
import { anthropicError, anthropicFrames } from "./anthropic-sse.ts";
import { chatCompletionFrames, openaiError } from "./chat-completions-sse.ts";
import { Holds } from "./holds.ts";
import { responsesFrames } from "./responses-sse.ts";
import { DEFAULT_REPLY } from "./sse-frames.ts";
import type { MockLlmServer, MockLlmServerOptions, MockReply, MockRequest, Segment } from "./types.ts";

/** Flush SSE text to the socket in batches of about this many characters. */
const BATCH_CHARS = 64 * 1024;
/** Let the already-written bytes reach the client before the connection is reset. */
const DISCONNECT_GRACE_MS = 20;

function segmentStream(segments: Iterator<Segment>, holds: Holds): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cancelled = false;
  let cancelWait: (() => void) | undefined;
  let disconnectNext = false;
  const hold = async (name: string, timeoutMs: number | undefined) => {
    const held = holds.hold(name, timeoutMs);
    cancelWait = held.cancel;
    return held.outcome;
  };
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      cancelWait = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (disconnectNext) {
          await wait(DISCONNECT_GRACE_MS);
          // Erroring without a reason makes Bun reset the socket without logging.
          controller.error();
          return;
        }
        let batch = "";
        const flush = () => {
          if (batch) controller.enqueue(encoder.encode(batch));
          batch = "";
        };
        while (!cancelled) {
          const next = segments.next();
          if (next.done) {
            flush();
            controller.close();
            return;
          }
          const segment = next.value;
          if (typeof segment === "string") {
            batch += segment;
            if (batch.length >= BATCH_CHARS) return flush();
          } else if ("delay_ms" in segment) {
            flush();
            await wait(segment.delay_ms);
          } else if ("hold" in segment) {
            flush();
            const outcome = await hold(segment.hold, segment.timeout_ms);
            if (outcome === "cancelled") return;
            if (outcome !== "released") {
              // Server closed or nobody released it: cut the stream, as a dead server would.
              controller.error();
              return;
            }
          } else {
            flush();
            disconnectNext = true;
            return;
          }
        }
      },
      cancel() {
        cancelled = true;
        cancelWait?.();
      },
    },
    { highWaterMark: 0 },
  );
}

const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" };

type Api = "anthropic" | "chat" | "responses";

function apiForPath(pathname: string): Api | undefined {
  const path = pathname.replace(/^\/v1(?=\/)/, "").replace(/\/+$/, "");
  if (path === "/messages") return "anthropic";
  if (path === "/chat/completions") return "chat";
  if (path === "/responses") return "responses";
  return undefined;
}

interface RequestBody {
  model?: unknown;
  stream_options?: { include_usage?: unknown };
}

function respond(api: Api, reply: MockReply, body: RequestBody | undefined, holds: Holds): Response {
  const isError = (reply.status !== undefined && reply.status !== 200) || reply.error_type !== undefined;
  if (isError && reply.error_html !== undefined)
    return new Response(reply.error_html, {
      status: reply.status ?? 500,
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  if (isError) {
    const { status, body: errorBody } = api === "anthropic" ? anthropicError(reply) : openaiError(reply);
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (reply.retry_after_s !== undefined) headers["retry-after"] = String(reply.retry_after_s);
    return new Response(JSON.stringify(errorBody), { status, headers });
  }
  const model = typeof body?.model === "string" ? body.model : "mock-model";
  const frames =
    api === "anthropic"
      ? anthropicFrames(reply, model)
      : api === "chat"
        ? chatCompletionFrames(reply, model, body?.stream_options?.include_usage === true)
        : responsesFrames(reply, model);
  return new Response(segmentStream(frames, holds), { headers: SSE_HEADERS });
}

/** The `/_mock/…` endpoints that drive holds from another process; undefined for API routes. */
async function controlRoute(req: Request, url: URL, holds: Holds): Promise<Response | undefined> {
  const match = /^\/_mock\/(release|held)\/(.+)$/.exec(url.pathname);
  if (!match) return undefined;
  const action = match[1];
  const name = decodeURIComponent(match[2] ?? "");
  if (action === "release" && req.method === "POST") return Response.json({ released: holds.release(name) });
  if (action === "held" && req.method === "GET") {
    const timeoutMs = Number(url.searchParams.get("timeout_ms") ?? 10_000);
    try {
      await holds.waitFor(name, timeoutMs);
      return Response.json({ held: name });
    } catch (err) {
      return Response.json({ error: { message: (err as Error).message } }, { status: 408 });
    }
  }
  return Response.json(
    { error: { message: `mock: no route for ${req.method} ${url.pathname}` } },
    { status: 405 },
  );
}

export async function startMockLlmServer(options: MockLlmServerOptions = {}): Promise<MockLlmServer> {
  const queue: MockReply[] = [];
  const requests: MockRequest[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const record = options.recordRequests ?? true;
  const holds = new Holds(options.holdTimeoutMs, options.onHoldTimeout);
  let requestCount = 0;
  let scriptIndex = 0;

  const nextReply = (bodyText: string): MockReply => {
    const index = queue.findIndex((r) => r.when === undefined || bodyText.includes(r.when));
    const queued = index >= 0 ? queue.splice(index, 1)[0] : undefined;
    if (queued) return queued;
    const script = options.script;
    if (script && script.length > 0) return script[scriptIndex++ % script.length]!;
    return DEFAULT_REPLY;
  };

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: options.port ?? 0,
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const control = await controlRoute(req, url, holds);
      if (control) return control;
      const text = await req.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // keep the raw text
      }
      requestCount++;
      if (record) {
        const headers: Record<string, string> = {};
        req.headers.forEach((value, key) => {
          headers[key.toLowerCase()] = value;
        });
        requests.push({ path: url.pathname, body, headers });
      }
      for (const w of waiters.splice(0)) {
        if (requestCount >= w.n) w.resolve();
        else waiters.push(w);
      }
      // OpenAI-compatible model listing, as Ollama/vLLM/llama.cpp serve it.
      if (req.method === "GET" && url.pathname.replace(/^\/v1(?=\/)/, "") === "/models") {
        return Response.json({
          object: "list",
          data: [{ id: options.modelId ?? "mock-model", object: "model" }],
        });
      }
      const api = req.method === "POST" ? apiForPath(url.pathname) : undefined;
      if (!api)
        return Response.json(
          { error: { message: `mock: no route for ${req.method} ${url.pathname}` } },
          { status: 404 },
        );
      return respond(
        api,
        nextReply(text),
        typeof body === "object" && body !== null ? (body as RequestBody) : undefined,
        holds,
      );
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    enqueue(...replies: MockReply[]) {
      queue.push(...replies);
    },
    clearQueue() {
      queue.length = 0;
    },
    waitForRequests(n: number, timeoutMs = 10_000): Promise<void> {
      if (requestCount >= n) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          const i = waiters.indexOf(waiter);
          if (i >= 0) waiters.splice(i, 1);
          reject(new Error(`mock LLM: expected ${n} requests, got ${requestCount} within ${timeoutMs}ms`));
        }, timeoutMs);
        const waiter = {
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
        waiters.push(waiter);
      });
    },
    waitForHold(name: string, timeoutMs = 10_000): Promise<void> {
      return holds.waitFor(name, timeoutMs);
    },
    release(name: string): number {
      return holds.release(name);
    },
    held(): string[] {
      return holds.names();
    },
    async close() {
      holds.close();
      await server.stop(true);
    },
  };
}
