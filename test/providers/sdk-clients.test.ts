/**
 * One SDK client per configuration (src/providers/sdk-clients.ts): requests with the same base
 * URL and key share a client, a different base URL or key gets its own, and attempts sharing a
 * client keep their own abort and timeouts (src/providers/attempt-fetch.ts). Against the local
 * streaming server, in each API's real wire format. A provider's `prepare` sends no request.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ProviderEvent } from "../../src/contracts/provider.ts";
import { anthropicClient } from "../../src/providers/anthropic/client.ts";
import { ATTEMPT_HEADER } from "../../src/providers/attempt-fetch.ts";
import { openAIClient } from "../../src/providers/openai-client.ts";
import { MAX_CLIENTS_PER_SDK } from "../../src/providers/sdk-clients.ts";
import { startMockLlmServer } from "../support/mock-llm/server.ts";
import type { MockLlmServer } from "../support/mock-llm/types.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { APIS, collect, last, mockProvider, request, textOf, userText } from "./helpers.ts";

const server = useMockLlmServer({ clearRequestsBeforeEach: true });
let other: MockLlmServer;
beforeAll(async () => {
  other = await startMockLlmServer();
});
afterAll(async () => {
  await other.close();
});

/** The key a request carried, in the header its API uses. */
function keyOf(headers: Record<string, string>): string | undefined {
  return headers["x-api-key"] ?? headers.authorization?.replace(/^Bearer /, "");
}

describe("client identity", () => {
  const config = { baseUrl: "http://127.0.0.1:9/v1", apiKey: "key-a" };

  test("the same base URL and key give the same client; another URL or key a new one", async () => {
    for (const client of [openAIClient, anthropicClient]) {
      const first = await client(config);
      expect(await client({ ...config })).toBe(first);
      expect(await client({ ...config, apiKey: "key-b" })).not.toBe(first);
      expect(await client({ ...config, baseUrl: "http://127.0.0.1:10/v1" })).not.toBe(first);
    }
  });

  test("the two SDKs never share a client for the same configuration", async () => {
    expect(await openAIClient(config)).not.toBe(await anthropicClient(config));
  });

  test(`only ${MAX_CLIENTS_PER_SDK} configurations are kept: the oldest is built again`, async () => {
    const first = await openAIClient({ baseUrl: "http://127.0.0.1:11/v1", apiKey: "oldest" });
    for (let i = 0; i < MAX_CLIENTS_PER_SDK; i++) {
      await openAIClient({ baseUrl: "http://127.0.0.1:11/v1", apiKey: `newer-${i}` });
    }
    expect(await openAIClient({ baseUrl: "http://127.0.0.1:11/v1", apiKey: "oldest" })).not.toBe(first);
  });
});

for (const api of APIS) {
  describe(api, () => {
    test("each provider's requests carry its own key, alternating between two keys", async () => {
      const a = mockProvider(server(), api, { spec: { api_key: "key-a" } });
      const b = mockProvider(server(), api, { spec: { api_key: "key-b" } });
      for (const provider of [a, b, a, b]) {
        server().enqueue({ steps: [{ text: "ok" }] });
        expect(textOf(await collect(provider.stream(request())))).toBe("ok");
      }
      expect(server().requests.map((r) => keyOf(r.headers))).toEqual(["key-a", "key-b", "key-a", "key-b"]);
    });

    test("a provider at another base URL reaches that server, and the first one still reaches its own", async () => {
      const here = mockProvider(server(), api);
      const there = mockProvider(other, api);
      server().enqueue({ steps: [{ text: "here" }] }, { steps: [{ text: "here again" }] });
      other.enqueue({ steps: [{ text: "there" }] });
      expect(textOf(await collect(here.stream(request())))).toBe("here");
      expect(textOf(await collect(there.stream(request())))).toBe("there");
      expect(textOf(await collect(here.stream(request())))).toBe("here again");
      expect(server().requests).toHaveLength(2);
    });

    test("prepare (SDK, client, connection) sends nothing; the call after it is the only request", async () => {
      const provider = mockProvider(server(), api, { spec: { api_key: `prepared-${api}` } });
      expect(provider.prepare).toBeDefined();
      provider.prepare?.();
      server().enqueue({ steps: [{ text: "ready" }] });
      expect(textOf(await collect(provider.stream(request())))).toBe("ready");
      expect(server().requests.map((r) => keyOf(r.headers))).toEqual([`prepared-${api}`]);
    });

    test("the attempt's routing header never reaches the server", async () => {
      server().enqueue({ steps: [{ text: "ok" }] });
      await collect(mockProvider(server(), api).stream(request()));
      const [sent] = server().requests;
      expect(sent).toBeDefined();
      expect(Object.keys(sent?.headers ?? {})).not.toContain(ATTEMPT_HEADER);
    });

    test("two streams on one shared client: aborting the held one leaves the other whole", async () => {
      const hold = `shared-${api}`;
      server().enqueue(
        { when: "first stream", steps: [{ text: "first" }, { hold }, { text: " never" }] },
        { when: "second stream", steps: [{ text: "second" }, { text: " done" }] },
      );
      const controller = new AbortController();
      const held: ProviderEvent[] = [];
      const first = (async () => {
        const stream = mockProvider(server(), api).stream(
          request({ messages: [userText("first stream")], signal: controller.signal }),
        );
        for await (const event of stream) held.push(event);
      })();
      await server().waitForHold(hold);
      const second = await collect(
        mockProvider(server(), api).stream(request({ messages: [userText("second stream")] })),
      );
      expect(textOf(second)).toBe("second done");
      expect(last(second)).toEqual({ type: "done", stop_reason: "end_turn" });
      controller.abort();
      await first;
      expect(textOf(held)).toBe("first");
      expect(last(held)).toMatchObject({ type: "error", kind: "aborted" });
      server().release(hold);
    });
  });
}
