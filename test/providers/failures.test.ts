/** Retries, aborts, disconnects and error classification, for each API against the mock server(). */
import { describe, expect, test } from "bun:test";
import type { ProviderEvent } from "../../src/contracts/provider.ts";
import { startMockLlmServer } from "../support/mock-llm/server.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { APIS, collect, last, mockProvider, request, textOf } from "./helpers.ts";

const server = useMockLlmServer({ clearRequestsBeforeEach: true });

type RetryEvent = Extract<ProviderEvent, { type: "retry" }>;
const retries = (events: ProviderEvent[]) => events.filter((e): e is RetryEvent => e.type === "retry");

for (const api of APIS) {
  describe(api, () => {
    test("429 then success: a retry event, then the content", async () => {
      server().enqueue({ status: 429 }, { steps: [{ text: "after retry" }] });
      const events = await collect(mockProvider(server(), api).stream(request()));
      expect(events[0]).toMatchObject({ type: "retry", attempt: 2 });
      expect(retries(events)).toHaveLength(1);
      expect(textOf(events)).toBe("after retry");
      expect(last(events)).toEqual({ type: "done", stop_reason: "end_turn" });
      expect(server().requests).toHaveLength(2);
    });

    test("Retry-After is honoured as the retry delay", async () => {
      server().enqueue({ status: 429, retry_after_s: 0.05 }, { steps: [{ text: "ok" }] });
      const events = await collect(mockProvider(server(), api).stream(request()));
      expect(retries(events)[0]?.delay_ms).toBe(50);
      expect(textOf(events)).toBe("ok");
    });

    test("an HTML error page is summarised as its status and first line, never dumped", async () => {
      const page = `<!DOCTYPE html>\n<html><head><style>body { color: red }</style></head>\n<body><h1>Bad &amp; Gateway</h1>\n${"<p>filler</p>".repeat(5000)}</body></html>`;
      server().enqueue({ status: 502, error_html: page });
      const end = last(await collect(mockProvider(server(), api, { maxAttempts: 1 }).stream(request())));
      expect(end).toMatchObject({ type: "error", kind: "provider", status: 502 });
      const message = end?.type === "error" ? end.message : "";
      expect(message).toEndWith(": 502 Bad & Gateway");
      expect(message).not.toContain("<");
      expect(message).not.toContain("filler");
    });

    test("5xx retries exhausted: a final error event with the status", async () => {
      server().enqueue({ status: 500 }, { status: 502 }, { status: 503 });
      const events = await collect(mockProvider(server(), api, { maxAttempts: 3 }).stream(request()));
      expect(retries(events).map((r) => r.attempt)).toEqual([2, 3]);
      const end = last(events);
      expect(end).toMatchObject({ type: "error", kind: "provider", status: 503 });
      expect(end?.type === "error" && end.message).toContain("gave up after 3 attempts");
      expect(server().requests).toHaveLength(3);
    });

    test("a disconnect before any content is retried", async () => {
      server().enqueue({ steps: [{ disconnect: true }] }, { steps: [{ text: "second try" }] });
      const events = await collect(mockProvider(server(), api).stream(request()));
      expect(retries(events)).toHaveLength(1);
      expect(textOf(events)).toBe("second try");
      expect(last(events)).toEqual({ type: "done", stop_reason: "end_turn" });
    });

    test("a disconnect mid-stream is a final error, not a retry, and does not hang", async () => {
      server().enqueue({ steps: [{ text: "partial answer" }, { disconnect: true }] });
      const events = await collect(mockProvider(server(), api).stream(request()));
      expect(textOf(events)).toBe("partial answer");
      expect(retries(events)).toHaveLength(0);
      const end = last(events);
      expect(end).toMatchObject({ type: "error", kind: "provider" });
      expect(end?.type === "error" && end.message).toMatch(/connection lost mid-stream/);
      expect(server().requests).toHaveLength(1);
    });

    test("abort during a stream ends it promptly with an aborted error", async () => {
      // The server holds the stream open; only the abort can end it before the hold times out.
      server().enqueue({ steps: [{ text: "first" }, { hold: "never-released" }, { text: "never" }] });
      const controller = new AbortController();
      const events: ProviderEvent[] = [];
      for await (const e of mockProvider(server(), api).stream(request({ signal: controller.signal }))) {
        events.push(e);
        if (e.type === "text_delta") controller.abort();
      }
      expect(textOf(events)).toBe("first");
      expect(last(events)).toEqual({ type: "error", kind: "aborted", message: "request aborted" });
    });

    test("abort during a backoff wait ends promptly without another request", async () => {
      server().enqueue({ status: 429, retry_after_s: 60 });
      const controller = new AbortController();
      const events: ProviderEvent[] = [];
      for await (const e of mockProvider(server(), api).stream(request({ signal: controller.signal }))) {
        events.push(e);
        if (e.type === "retry") controller.abort();
      }
      expect(events.map((e) => e.type)).toEqual(["retry", "error"]);
      expect(last(events)).toMatchObject({ type: "error", kind: "aborted" });
      expect(server().requests).toHaveLength(1);
    });

    test("an already-aborted signal sends nothing", async () => {
      const controller = new AbortController();
      controller.abort();
      const events = await collect(
        mockProvider(server(), api).stream(request({ signal: controller.signal })),
      );
      expect(events).toEqual([{ type: "error", kind: "aborted", message: "request aborted" }]);
      expect(server().requests).toHaveLength(0);
    });

    test("context overflow is classified and not retried", async () => {
      server().enqueue({ error_type: "context_overflow" });
      const events = await collect(mockProvider(server(), api).stream(request()));
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ type: "error", kind: "context_overflow", status: 400 });
      expect(server().requests).toHaveLength(1);
    });

    test("401 is an auth error and not retried", async () => {
      server().enqueue({ status: 401 });
      const events = await collect(mockProvider(server(), api).stream(request()));
      expect(events).toEqual([expect.objectContaining({ type: "error", kind: "auth", status: 401 })]);
      expect(server().requests).toHaveLength(1);
    });

    test("a plain 400 is a provider error and not retried", async () => {
      server().enqueue({ status: 400, error_type: "tools.0.name: String should match pattern" });
      const events = await collect(mockProvider(server(), api).stream(request()));
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ type: "error", kind: "provider", status: 400 });
      expect(events[0]?.type === "error" && events[0].message).toContain("String should match pattern");
    });

    test("connection refused is retried, then reported", async () => {
      const dead = await startMockLlmServer();
      await dead.close();
      const events = await collect(mockProvider(dead, api, { maxAttempts: 2 }).stream(request()));
      expect(retries(events)).toHaveLength(1);
      expect(last(events)).toMatchObject({ type: "error", kind: "provider" });
    });
  });
}

describe("anthropic-messages overload", () => {
  test("529 overloaded_error is retried", async () => {
    server().enqueue({ error_type: "overloaded_error" }, { steps: [{ text: "recovered" }] });
    const events = await collect(mockProvider(server(), "anthropic-messages").stream(request()));
    expect(retries(events)).toHaveLength(1);
    expect(retries(events)[0]?.reason).toContain("Overloaded");
    expect(textOf(events)).toBe("recovered");
    expect(server().requests).toHaveLength(2);
  });
});

describe("OpenAI quota", () => {
  test("429 insufficient_quota is not retried", async () => {
    server().enqueue({ status: 429, error_type: "insufficient_quota" });
    const events = await collect(mockProvider(server(), "openai-completions").stream(request()));
    expect(events).toEqual([expect.objectContaining({ type: "error", kind: "provider", status: 429 })]);
  });
});
