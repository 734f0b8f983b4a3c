/** The mock LLM server itself: bulk streaming, routing, defaults, the standalone process. */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MockReply } from "../support/mock-llm/types.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { APIS, collect, last, mockProvider, request, textOf } from "./helpers.ts";

const server = useMockLlmServer();

describe("mock LLM server", () => {
  for (const api of APIS) {
    test(`${api}: streams 10,000 tiny text deltas`, async () => {
      const text = "x".repeat(10_000);
      server().enqueue({ steps: [{ text, chunks: 10_000 }] });
      const events = await collect(mockProvider(server(), api).stream(request()));
      expect(events.filter((e) => e.type === "text_delta")).toHaveLength(10_000);
      expect(textOf(events)).toBe(text);
      expect(last(events)).toEqual({ type: "done", stop_reason: "end_turn" });
    });
  }

  test("an empty queue answers with a short default text turn", async () => {
    const events = await collect(mockProvider(server(), "openai-completions").stream(request()));
    expect(textOf(events).length).toBeGreaterThan(0);
  });

  test("paths work without the /v1 prefix; unknown paths are 404", async () => {
    server().enqueue({ steps: [{ text: "no prefix" }] });
    const res = await fetch(`${server().url}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [], stream: true }),
    });
    const body = await res.text();
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(body).toContain('"content":"no prefix"');
    expect(body.trimEnd().endsWith("data: [DONE]")).toBe(true);
    expect((await fetch(`${server().url}/v1/embeddings`, { method: "POST", body: "{}" })).status).toBe(404);
  });

  test("waitForRequests resolves once enough requests arrived and rejects on timeout", async () => {
    const before = server().requests.length;
    const waiting = server().waitForRequests(before + 1, 10_000);
    await collect(mockProvider(server(), "anthropic-messages").stream(request()));
    await waiting;
    await expect(server().waitForRequests(before + 100, 50)).rejects.toThrow(/expected/);
  });

  test("error replies use each API's real error body and Retry-After", async () => {
    server().enqueue({ error_type: "overloaded_error", retry_after_s: 3 });
    const res = await fetch(`${server().url}/v1/messages`, { method: "POST", body: "{}" });
    expect(res.status).toBe(529);
    expect(res.headers.get("retry-after")).toBe("3");
    expect(await res.json()).toMatchObject({ type: "error", error: { type: "overloaded_error" } });
    server().enqueue({ error_type: "context_overflow" });
    const res2 = await fetch(`${server().url}/v1/responses`, { method: "POST", body: "{}" });
    expect(res2.status).toBe(400);
    expect(await res2.json()).toMatchObject({ error: { code: "context_length_exceeded" } });
  });
});

describe("standalone mock (main.ts)", () => {
  test("serves a script cyclically on the requested port", async () => {
    const dir = mkdtempSync(join(tmpdir(), "shard-mock-main-"));
    const script: MockReply[] = [{ steps: [{ text: "one" }] }, { steps: [{ text: "two" }] }];
    const scriptFile = join(dir, "script.json");
    writeFileSync(scriptFile, JSON.stringify(script));
    const child = Bun.spawn(
      ["bun", join(import.meta.dir, "../support/mock-llm/main.ts"), "--port", "0", "--script", scriptFile],
      {
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    try {
      const reader = child.stdout.getReader();
      let out = "";
      while (!out.includes("\n")) {
        const { value, done } = await reader.read();
        if (done) break;
        out += new TextDecoder().decode(value);
      }
      reader.releaseLock();
      const url = out.match(/MOCK_LLM_URL=(\S+)/)?.[1];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const remote = {
        url: url!,
        enqueue() {},
        requests: [],
        waitForRequests: async () => {},
        close: async () => {},
      };
      const texts: string[] = [];
      for (let i = 0; i < 3; i++) {
        texts.push(textOf(await collect(mockProvider(remote, "openai-responses").stream(request()))));
      }
      expect(texts).toEqual(["one", "two", "one"]);
    } finally {
      child.kill();
      await child.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
