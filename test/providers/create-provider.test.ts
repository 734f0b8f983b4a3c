/** createProvider: key resolution and the "only OPENAI_BASE_URL is set" path, end to end. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultModelId, loadModelCatalog, resolveModel } from "../../src/providers/catalog.ts";
import { createProvider } from "../../src/providers/create-provider.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { collect, request, textOf } from "./helpers.ts";

const server = useMockLlmServer({ clearRequestsBeforeEach: true });
let home: string;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "shard-create-provider-"));
});
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

describe("createProvider", () => {
  test("a missing key for a vendor host is NOT_FOUND naming the env var", () => {
    const catalog = loadModelCatalog(home, {});
    for (const [id, envName] of [
      ["openai/gpt-4.1", "OPENAI_API_KEY"],
      ["anthropic/claude-sonnet-5-5", "ANTHROPIC_API_KEY"],
    ] as const) {
      const result = createProvider(resolveModel(catalog, id)!, {});
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.code).toBe("NOT_FOUND");
        expect(result.message).toContain(envName);
      }
    }
  });

  test("a models.json provider with api_key_env on a remote host requires that variable", () => {
    const result = createProvider(
      {
        id: "router/x",
        provider: "router",
        model: "x",
        api: "openai-completions",
        base_url: "https://router.example/v1",
        api_key_env: "ROUTER_KEY",
        context_window: 1000,
        max_output: 100,
        reasoning: false,
        cost: { input: 0, output: 0 },
      },
      {},
    );
    expect(result).toEqual({
      ok: false,
      code: "NOT_FOUND",
      message: "No API key for router x at https://router.example/v1: set ROUTER_KEY",
    });
  });

  test("the key comes from api_key_env", async () => {
    const spec = {
      id: "local/m",
      provider: "local",
      model: "m",
      api: "openai-completions" as const,
      base_url: `${server().url}/v1`,
      api_key_env: "LOCAL_KEY",
      context_window: 1000,
      max_output: 100,
      reasoning: false,
      cost: { input: 0, output: 0 },
    };
    const built = createProvider(spec, { LOCAL_KEY: "from-env" });
    if (!built.ok) throw new Error(built.message);
    await collect(built.provider.stream(request({ model: "m" })));
    expect(server().requests[0]!.headers.authorization).toBe("Bearer from-env");
  });

  test("only OPENAI_BASE_URL set (local server): default model works with a placeholder key", async () => {
    const env = { OPENAI_BASE_URL: `${server().url}/v1` };
    const catalog = loadModelCatalog(home, env);
    const id = defaultModelId(catalog, env);
    expect(id).toBe("openai/gpt-6.1-sol");
    const spec = resolveModel(catalog, "openai/qwen3:8b")!;
    const built = createProvider(spec, env);
    if (!built.ok) throw new Error(built.message);
    server().enqueue({ steps: [{ text: "local says hi" }] });
    const events = await collect(built.provider.stream(request({ model: spec.model })));
    expect(textOf(events)).toBe("local says hi");
    expect(server().requests[0]!.body.model).toBe("qwen3:8b");
    expect(server().requests[0]!.headers.authorization).toBe("Bearer shard-no-key");
    // Compatible servers get max_tokens; api.openai.com gets max_completion_tokens.
    expect(server().requests[0]!.body.max_tokens).toBe(8192);
  });

  test("SHARD_RETRY_BASE_MS from env controls the backoff", async () => {
    const env = { OPENAI_BASE_URL: `${server().url}/v1`, SHARD_RETRY_BASE_MS: "1" };
    const built = createProvider(resolveModel(loadModelCatalog(home, env), "openai/gpt-4.1")!, env);
    if (!built.ok) throw new Error(built.message);
    server().enqueue({ status: 503 }, { steps: [{ text: "ok" }] });
    const events = await collect(built.provider.stream(request()));
    const retry = events.find((e) => e.type === "retry");
    expect(retry?.type === "retry" && retry.delay_ms).toBeLessThanOrEqual(1);
  });
});
