/**
 * Provider timeouts against a server that accepts the connection and then hangs (before the
 * status line, after the headers, or mid-stream), for each wire format. The timeouts are a
 * few ms, set through createProvider options; the hanging requests are released after each
 * test, never waited out.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import type { ProviderApi, ProviderEvent, ProviderTimeouts } from "../../src/contracts/provider.ts";
import { createProvider } from "../../src/providers/create-provider.ts";
import { retryDetail } from "../../src/providers/retry.ts";
import { timedFetch } from "../../src/providers/timed-fetch.ts";
import { ProviderTimeoutError } from "../../src/providers/timeouts.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { APIS, collect, last, mockSpec, request, textOf } from "./helpers.ts";
import { type StallingProxy, startStallingProxy } from "./stalling-proxy.ts";

const server = useMockLlmServer({ clearRequestsBeforeEach: true });
let proxy: StallingProxy;
beforeAll(() => {
  proxy = startStallingProxy(server().url);
});
afterEach(() => proxy.reset());
afterAll(() => proxy.close());

const TINY: ProviderTimeouts = { connectMs: 0, firstByteMs: 60, idleMs: 60 };
const LONG: ProviderTimeouts = { connectMs: 60_000, firstByteMs: 120_000, idleMs: 120_000 };

function provider(api: ProviderApi, timeouts: ProviderTimeouts, maxAttempts = 2) {
  const base = api === "anthropic-messages" ? proxy.url : `${proxy.url}/v1`;
  const built = createProvider(
    mockSpec(server(), api, { base_url: base }),
    {},
    { retryBaseMs: 1, maxAttempts, timeouts },
  );
  if (!built.ok) throw new Error(built.message);
  return built.provider;
}

type RetryEvent = Extract<ProviderEvent, { type: "retry" }>;
const retries = (events: ProviderEvent[]) => events.filter((e): e is RetryEvent => e.type === "retry");

for (const api of APIS) {
  describe(api, () => {
    const endpoint = () =>
      `mock ${api}-model at ${api === "anthropic-messages" ? proxy.url : `${proxy.url}/v1`}`;

    test("a server that never answers: first byte times out, is retried, then reported", async () => {
      proxy.hold("silent", "silent");
      const events = await collect(provider(api, TINY).stream(request()));
      const [retry] = retries(events);
      expect(retry).toBeDefined();
      expect(retryDetail(retry!)).toMatch(/^retrying in \d+ ms, attempt 2\/2: /);
      expect(retryDetail(retry!)).toEndWith(`: ${endpoint()}: first byte timed out after 60 ms`);
      const end = last(events);
      expect(end).toMatchObject({ type: "error", kind: "provider" });
      expect(end?.type === "error" && end.message).toBe(
        `${endpoint()}: first byte timed out after 60 ms (gave up after 2 attempts)`,
      );
    });

    test("headers and then silence: the idle timeout fires and the retry succeeds", async () => {
      proxy.hold("headers");
      server().enqueue({ steps: [{ text: "second try" }] });
      // Only the idle timeout is tiny: the retry's own first byte may be slow on a loaded machine.
      const events = await collect(provider(api, { ...TINY, firstByteMs: 10_000 }).stream(request()));
      expect(retries(events).map((r) => r.reason)).toEqual([
        `${endpoint()}: stream stalled: no data for 60 ms`,
      ]);
      expect(textOf(events)).toBe("second try");
      expect(last(events)).toEqual({ type: "done", stop_reason: "end_turn" });
    });

    test("a stall mid-stream after partial output is a final error, not a retry", async () => {
      proxy.hold({ cutAfter: "partial answer" });
      server().enqueue({ steps: [{ text: "partial answer" }, { text: " and the rest" }] });
      const events = await collect(provider(api, TINY).stream(request()));
      expect(textOf(events)).toBe("partial answer");
      expect(retries(events)).toHaveLength(0);
      const end = last(events);
      expect(end?.type === "error" && end.message).toBe(
        `${endpoint()}: connection lost mid-stream after partial output: stream stalled: no data for 60 ms`,
      );
    });

    test("abort cuts a long first-byte wait at once", async () => {
      proxy.hold("silent");
      const controller = new AbortController();
      const done = collect(provider(api, LONG).stream(request({ signal: controller.signal })));
      await proxy.waitForHeld(1);
      controller.abort();
      expect(last(await done)).toMatchObject({ type: "error", kind: "aborted" });
    });

    test("abort cuts a long wait between chunks at once", async () => {
      proxy.hold({ cutAfter: "partial answer" });
      server().enqueue({ steps: [{ text: "partial answer" }, { text: " and the rest" }] });
      const controller = new AbortController();
      const events: ProviderEvent[] = [];
      for await (const event of provider(api, LONG).stream(request({ signal: controller.signal }))) {
        events.push(event);
        if (event.type === "text_delta") controller.abort();
      }
      expect(last(events)).toMatchObject({ type: "error", kind: "aborted" });
    });
  });
}

describe("connect timeout", () => {
  /** Stands in for the network: a request whose response never comes, until aborted. */
  const neverAnswers = (_input: string | URL | Request, init?: RequestInit) =>
    new Promise<Response>((_resolve, reject) => {
      init?.signal?.addEventListener("abort", () => reject(init.signal?.reason), { once: true });
    });

  test("late headers from an unreachable host fail as a connect timeout, long before the first-byte one", async () => {
    // A loopback port nothing listens on: the reachability probe is refused at once.
    const closed = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const port = closed.port;
    closed.stop(true);
    const fetcher = timedFetch(
      { connectMs: 30, firstByteMs: 60_000, idleMs: 0 },
      undefined,
      undefined,
      neverAnswers,
    );
    const error = await fetcher(`http://127.0.0.1:${port}/v1/chat/completions`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect(error instanceof Error && error.message).toBe("connect timed out after 30 ms");
  });

  for (const api of APIS) {
    test(`${api}: a reachable server that is slow to answer gets the first-byte timeout, not connect`, async () => {
      proxy.hold("silent");
      const events = await collect(
        provider(api, { connectMs: 10, firstByteMs: 80, idleMs: 0 }, 1).stream(request()),
      );
      const end = last(events);
      expect(end).toMatchObject({ type: "error", kind: "provider" });
      expect(end?.type === "error" && end.message).toEndWith(": first byte timed out after 80 ms");
    });
  }
});
