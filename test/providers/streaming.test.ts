/** Each API's provider against the mock server: the normalized event sequence for real wire streams. */
import { describe, expect, test } from "bun:test";
import type { ProviderEvent } from "../../src/contracts/provider.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { APIS, collect, last, mockProvider, request, textOf } from "./helpers.ts";

const server = useMockLlmServer();

for (const api of APIS) {
  describe(api, () => {
    test("plain text turn: text deltas, usage, done(end_turn)", async () => {
      server().enqueue({ steps: [{ text: "Hello, world!", chunks: 3 }], usage: { input: 12, output: 4 } });
      const events = await collect(mockProvider(server(), api).stream(request()));
      expect(events.map((e) => e.type)).toEqual(["text_delta", "text_delta", "text_delta", "usage", "done"]);
      expect(textOf(events)).toBe("Hello, world!");
      expect(events[3]).toEqual({ type: "usage", usage: { input: 12, output: 4 } });
      expect(last(events)).toEqual({ type: "done", stop_reason: "end_turn" });
    });

    test("thinking arrives as thinking deltas before the text", async () => {
      server().enqueue({
        steps: [{ thinking: "Let me think about it.", chunks: 4, signature: "sig-abc" }, { text: "42" }],
      });
      const events = await collect(mockProvider(server(), api).stream(request()));
      const thinking = events
        .filter((e) => e.type === "thinking_delta")
        .map((e) => (e as { text: string }).text);
      expect(thinking).toHaveLength(4);
      expect(thinking.join("")).toBe("Let me think about it.");
      const firstText = events.findIndex((e) => e.type === "text_delta");
      expect(events.findLastIndex((e) => e.type === "thinking_delta")).toBeLessThan(firstText);
      const signatures = events.filter((e) => e.type === "thinking_signature");
      // Only Anthropic signs thinking.
      expect(signatures).toEqual(
        api === "anthropic-messages" ? [{ type: "thinking_signature", signature: "sig-abc" }] : [],
      );
      expect(last(events)).toEqual({ type: "done", stop_reason: "end_turn" });
    });

    test("a tool call whose arguments are split across many chunks", async () => {
      const args = { path: "src/deeply/nested/file.ts", offset: 120, limit: 40, note: "ünïcödé ✓" };
      server().enqueue({
        steps: [{ text: "Reading." }, { tool_call: { id: "call_42", name: "read", args, chunks: 25 } }],
      });
      const events = await collect(mockProvider(server(), api).stream(request()));
      const starts = events.filter((e) => e.type === "tool_call_start");
      expect(starts).toEqual([{ type: "tool_call_start", id: "call_42", name: "read" }]);
      const deltas = events.filter(
        (e): e is Extract<ProviderEvent, { type: "tool_call_delta" }> => e.type === "tool_call_delta",
      );
      expect(deltas.length).toBe(25);
      expect(deltas.every((d) => d.id === "call_42")).toBe(true);
      expect(JSON.parse(deltas.map((d) => d.args_delta).join(""))).toEqual(args);
      expect(events.indexOf(starts[0]!)).toBeLessThan(events.indexOf(deltas[0]!));
      expect(last(events)).toEqual({ type: "done", stop_reason: "tool_use" });
    });

    test("two tool calls in one turn keep their own ids", async () => {
      server().enqueue({
        steps: [
          { tool_call: { id: "a1", name: "ls", args: { path: "." }, chunks: 3 } },
          { tool_call: { id: "b2", name: "grep", args: { pattern: "x" }, chunks: 3 } },
        ],
      });
      const events = await collect(mockProvider(server(), api).stream(request()));
      const byId = new Map<string, string>();
      for (const e of events)
        if (e.type === "tool_call_delta") byId.set(e.id, (byId.get(e.id) ?? "") + e.args_delta);
      expect(JSON.parse(byId.get("a1")!)).toEqual({ path: "." });
      expect(JSON.parse(byId.get("b2")!)).toEqual({ pattern: "x" });
    });

    test("usage with cache reads is normalized to uncached input + cache_read", async () => {
      server().enqueue({ steps: [{ text: "ok" }], usage: { input: 100, output: 20, cache_read: 900 } });
      const events = await collect(mockProvider(server(), api).stream(request()));
      expect(events.find((e) => e.type === "usage")).toEqual({
        type: "usage",
        usage: { input: 100, output: 20, cache_read: 900 },
      });
    });

    test("max_tokens stop reason", async () => {
      server().enqueue({ steps: [{ text: "trunc" }], stop: "max_tokens" });
      const events = await collect(mockProvider(server(), api).stream(request()));
      expect(last(events)).toEqual({ type: "done", stop_reason: "max_tokens" });
    });
  });
}
