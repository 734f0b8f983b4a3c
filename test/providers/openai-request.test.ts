/** The OpenAI formats' own request (no SDK): what reaches the server, and how its refusals read. */
import { afterEach, describe, expect, test } from "bun:test";
import type { ProviderApi } from "../../src/contracts/provider.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { collect, last, mockProvider, request, textOf } from "./helpers.ts";

const server = useMockLlmServer({ clearRequestsBeforeEach: true });
const OPENAI_APIS: ProviderApi[] = ["openai-completions", "openai-responses"];
const PATHS: Record<string, string> = {
  "openai-completions": "/v1/chat/completions",
  "openai-responses": "/v1/responses",
};

const savedEnv = { org: process.env.OPENAI_ORG_ID, project: process.env.OPENAI_PROJECT_ID };
afterEach(() => {
  for (const [key, value] of [
    ["OPENAI_ORG_ID", savedEnv.org],
    ["OPENAI_PROJECT_ID", savedEnv.project],
  ] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

for (const api of OPENAI_APIS) {
  describe(api, () => {
    test("the request carries the key, a JSON body, and the organization and project from the environment", async () => {
      process.env.OPENAI_ORG_ID = "org-from-env";
      process.env.OPENAI_PROJECT_ID = "proj-from-env";
      server().enqueue({ steps: [{ text: "hi" }] });
      const events = await collect(mockProvider(server(), api).stream(request()));
      expect(textOf(events)).toBe("hi");
      const [sent] = server().requests;
      expect(sent?.path).toBe(PATHS[api]);
      expect(sent?.headers.authorization).toBe("Bearer test-key");
      expect(sent?.headers["content-type"]).toContain("application/json");
      expect(sent?.headers["openai-organization"]).toBe("org-from-env");
      expect(sent?.headers["openai-project"]).toBe("proj-from-env");
      expect(sent?.body.stream).toBe(true);
    });

    test("a base URL ending in a slash does not double it", async () => {
      server().enqueue({ steps: [{ text: "ok" }] });
      const provider = mockProvider(server(), api, { spec: { base_url: `${server().url}/v1/` } });
      expect(textOf(await collect(provider.stream(request())))).toBe("ok");
      expect(server().requests.map((r) => r.path)).toEqual([PATHS[api] ?? ""]);
    });

    test("an error status says the status and the server's message", async () => {
      server().enqueue({ status: 400, error_type: "the model does not support tools" });
      const end = last(await collect(mockProvider(server(), api, { maxAttempts: 1 }).stream(request())));
      expect(end).toMatchObject({ type: "error", kind: "provider", status: 400 });
      expect(end?.type === "error" && end.message).toContain("400 the model does not support tools");
    });
  });
}

test("a proxy's plain-text error body is the message", async () => {
  const proxy = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response("upstream unavailable", { status: 502 }),
  });
  try {
    const events = await collect(
      mockProvider({ url: `http://127.0.0.1:${proxy.port}` }, "openai-completions", {
        maxAttempts: 1,
      }).stream(request()),
    );
    const end = last(events);
    expect(end).toMatchObject({ type: "error", kind: "provider", status: 502 });
    expect(end?.type === "error" && end.message).toContain("502 upstream unavailable");
  } finally {
    await proxy.stop(true);
  }
});
