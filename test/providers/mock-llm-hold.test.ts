/**
 * The mock LLM server's holds: a stream waits at `{ hold }` until the test releases it, and no
 * hold outlives its server, its client or its timeout.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ProviderEvent } from "../../src/contracts/provider.ts";
import { startMockLlmServer } from "../support/mock-llm/server.ts";
import type { MockReply } from "../support/mock-llm/types.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { APIS, collect, last, mockProvider, request, textOf } from "./helpers.ts";

const server = useMockLlmServer();

/** Raw SSE text of one chat completion request to `base`. */
function chat(base: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${base}/v1/chat/completions`, {
    method: "POST",
    body: JSON.stringify({ model: "m", messages: [], stream: true }),
    ...(signal ? { signal } : {}),
  });
}

/** Polls `check` (for a state the server cannot announce to a test, e.g. a socket it saw close). */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not reached in time: ${what}`);
    await Bun.sleep(10);
  }
}

describe("mock LLM holds", () => {
  for (const api of APIS) {
    test(`${api}: what comes before a hold is streamed, the rest only after release`, async () => {
      server().enqueue({ steps: [{ text: "before" }, { hold: `h-${api}` }, { text: " after" }] });
      const events: ProviderEvent[] = [];
      const iterator = mockProvider(server(), api).stream(request())[Symbol.asyncIterator]();
      // Read up to the first text: the part before the hold arrives while the stream is held.
      for (;;) {
        const next = await iterator.next();
        if (next.done) throw new Error("the stream ended before its hold");
        events.push(next.value);
        if (next.value.type === "text_delta") break;
      }
      await server().waitForHold(`h-${api}`);
      expect(server().held()).toEqual([`h-${api}`]);
      expect(textOf(events)).toBe("before");
      expect(server().release(`h-${api}`)).toBe(1);
      for (let next = await iterator.next(); !next.done; next = await iterator.next())
        events.push(next.value);
      expect(textOf(events)).toBe("before after");
      expect(last(events)).toEqual({ type: "done", stop_reason: "end_turn" });
      expect(server().held()).toEqual([]);
    });
  }

  test("a release that comes before the stream reaches the hold is kept for it", async () => {
    expect(server().release("early")).toBe(0);
    server().enqueue({ steps: [{ text: "a" }, { hold: "early" }, { text: "b" }] });
    const events = await collect(mockProvider(server(), "openai-completions").stream(request()));
    expect(textOf(events)).toBe("ab");
    // Used up: the next stream at the same hold waits again.
    server().enqueue({ steps: [{ hold: "early" }, { text: "c" }] });
    const res = await chat(server().url);
    await server().waitForHold("early");
    server().release("early");
    expect(await res.text()).toContain('"content":"c"');
  });

  test("control requests over HTTP are not recorded as API requests", async () => {
    const before = server().requests.length;
    const res = await fetch(`${server().url}/_mock/release/unused`, { method: "POST" });
    expect(await res.json()).toEqual({ released: 0 });
    expect(server().requests.length).toBe(before);
  });

  test("waitForHold rejects in time when no stream gets there, naming the hold", async () => {
    const error = await server()
      .waitForHold("nowhere", 50)
      .catch((e: Error) => e);
    expect(String(error)).toContain('no stream reached hold "nowhere" within 50 ms (held now: none)');
  });

  test("closing the server cuts every held stream and rejects waiters", async () => {
    const own = await startMockLlmServer();
    own.enqueue({ steps: [{ text: "partial" }, { hold: "forever" }, { text: "never" }] });
    const res = await chat(own.url);
    await own.waitForHold("forever");
    const waiting = own.waitForHold("other").catch((e: Error) => e);
    const body = res.text().then(
      (text) => ({ text }),
      (err: Error) => ({ err }),
    );
    await own.close();
    expect(String(await waiting)).toContain('closed while waiting for hold "other"');
    const result = await body;
    expect("text" in result ? result.text : "").not.toContain("never");
    expect("text" in result && result.text.includes("[DONE]")).toBe(false);
    expect(own.held()).toEqual([]);
  });

  test("a hold nobody releases is cut after its timeout, and says so", async () => {
    const warnings: string[] = [];
    const own = await startMockLlmServer({ holdTimeoutMs: 50, onHoldTimeout: (m) => warnings.push(m) });
    try {
      own.enqueue({ steps: [{ text: "partial" }, { hold: "lost" }, { text: "never" }] });
      const events = await collect(mockProvider(own, "anthropic-messages").stream(request()));
      expect(textOf(events)).toBe("partial");
      expect(last(events)).toMatchObject({ type: "error", kind: "provider" });
      expect(own.held()).toEqual([]);
      expect(warnings).toEqual([
        'mock LLM: hold "lost" was not released within 50 ms; the stream was cut (call release("lost"))',
      ]);
      // A step's own timeout wins over the server's.
      own.enqueue({ steps: [{ hold: "longer", timeout_ms: 60_000 }, { text: "released" }] });
      const res = await chat(own.url);
      await own.waitForHold("longer");
      // A probe held later with the server's 50 ms is cut first; "longer" is still held after it.
      own.enqueue({ steps: [{ hold: "probe" }] });
      await (await chat(own.url)).text().catch(() => "");
      expect(warnings.at(-1)).toContain('hold "probe" was not released within 50 ms');
      expect(own.held()).toEqual(["longer"]);
      own.release("longer");
      expect(await res.text()).toContain('"content":"released"');
      expect(warnings).toHaveLength(2);
    } finally {
      await own.close();
    }
  });

  test("a client that goes away ends its hold", async () => {
    server().enqueue({ steps: [{ text: "partial" }, { hold: "abandoned" }, { text: "never" }] });
    const controller = new AbortController();
    const res = await chat(server().url, controller.signal);
    await server().waitForHold("abandoned");
    controller.abort();
    await res.text().catch(() => undefined);
    await until(() => server().held().length === 0, "the abandoned hold ended");
  });

  test("a server in another process is released over HTTP", async () => {
    const dir = mkdtempSync(join(tmpdir(), "shard-mock-hold-"));
    const script: MockReply[] = [{ steps: [{ text: "one" }, { hold: "remote" }, { text: " two" }] }];
    const scriptFile = join(dir, "script.json");
    writeFileSync(scriptFile, JSON.stringify(script));
    const child = Bun.spawn(
      ["bun", join(import.meta.dir, "../support/mock-llm/main.ts"), "--script", scriptFile, "--record"],
      { stdout: "pipe", stderr: "pipe" },
    );
    try {
      let out = "";
      const reader = child.stdout.getReader();
      while (!out.includes("\n")) {
        const { value, done } = await reader.read();
        if (done) throw new Error("main.ts exited before printing its URL");
        out += new TextDecoder().decode(value);
      }
      reader.releaseLock();
      const base = out.match(/MOCK_LLM_URL=(\S+)/)?.[1] ?? "";
      const early = await fetch(`${base}/_mock/held/remote?timeout_ms=50`);
      expect(early.status).toBe(408);
      const res = await chat(base);
      const held = await fetch(`${base}/_mock/held/remote`);
      expect(await held.json()).toEqual({ held: "remote" });
      const released = await fetch(`${base}/_mock/release/remote`, { method: "POST" });
      expect(await released.json()).toEqual({ released: 1 });
      const text = await res.text();
      expect(text).toContain('"content":"one"');
      expect(text).toContain('"content":" two"');
      expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
    } finally {
      child.kill();
      await child.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
