/**
 * What a user sees when the configuration is wrong or missing: every error names the
 * provider, model and base URL; a base URL without a scheme is refused at load; a
 * models.json model missing a field is reported and never quietly replaced by defaults;
 * runtime-internal hints never reach the message.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { authHint } from "../../src/providers/auth-hint.ts";
import { loadModelCatalog, resolveModel, unknownModelMessage } from "../../src/providers/catalog.ts";
import { classifyError } from "../../src/providers/classify-error.ts";
import { createProvider } from "../../src/providers/create-provider.ts";
import { startMockLlmServer } from "../support/mock-llm/server.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { APIS, collect, last, mockProvider, request, textOf } from "./helpers.ts";

const server = useMockLlmServer({ clearRequestsBeforeEach: true });

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "shard-config-errors-"));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

function writeModels(data: unknown): string {
  const file = join(home, "models.json");
  writeFileSync(file, JSON.stringify(data));
  return file;
}

const MODEL = { id: "qwen3:8b", context_window: 32768, max_output: 8192 };

describe("nothing configured", () => {
  test("the error lists every way to configure a model, with the models.json path", () => {
    const catalog = loadModelCatalog(home, {});
    const env = { SHARD_HOME: home, SHARD_DISCOVER_PORTS: "1" };
    for (const id of ["anthropic/claude-sonnet-5-5", "openai/gpt-6.1-sol"]) {
      const built = createProvider(resolveModel(catalog, id)!, env);
      expect(built.ok).toBe(false);
      if (built.ok) continue;
      for (const way of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL", join(home, "models.json")])
        expect(built.message).toContain(way);
      expect(built.message).toContain("No local server answered on 127.0.0.1:1");
    }
  });

  test("a missing key with something configured names the variable and the endpoint", () => {
    const catalog = loadModelCatalog(home, {});
    const built = createProvider(resolveModel(catalog, "anthropic/claude-sonnet-5-5")!, {
      OPENAI_API_KEY: "k",
    });
    expect(built).toEqual({
      ok: false,
      code: "NOT_FOUND",
      message:
        "No API key for anthropic claude-sonnet-5-5 at https://api.anthropic.com: set ANTHROPIC_API_KEY",
    });
  });
});

describe("base URLs", () => {
  test("an env base URL without a scheme is reported at load and refused by the provider", () => {
    const env = { OPENAI_BASE_URL: "localhost:11434/v1", OPENAI_API_KEY: "k" };
    const catalog = loadModelCatalog(home, env);
    expect(catalog.errors).toEqual([
      {
        file: "environment",
        field: "OPENAI_BASE_URL",
        reason:
          'must be an http:// or https:// URL (got "localhost:11434/v1"); for example http://localhost:11434/v1',
      },
    ]);
    const built = createProvider(resolveModel(catalog, "openai/gpt-4.1")!, env);
    expect(built.ok).toBe(false);
    expect(!built.ok && built.message).toStartWith(
      "openai gpt-4.1: base URL must be an http:// or https:// URL",
    );
  });

  test("a models.json base URL without a scheme is reported with its field; the provider is not loaded", () => {
    const file = writeModels({
      providers: { local: { api: "openai-completions", base_url: "127.0.0.1:11434/v1", models: [MODEL] } },
    });
    const catalog = loadModelCatalog(home, {});
    expect(catalog.errors).toHaveLength(1);
    expect(catalog.errors[0]).toMatchObject({ file, field: "providers.local.base_url" });
    expect(catalog.errors[0]!.reason).toContain(
      '(got "127.0.0.1:11434/v1"); for example http://127.0.0.1:11434/v1',
    );
    expect(catalog.models.some((m) => m.provider === "local")).toBe(false);
  });

  for (const suffix of ["/v1", "/v1/"]) {
    test(`ANTHROPIC_BASE_URL ending in ${suffix} requests /v1/messages, not /v1/v1/messages`, async () => {
      const env = { ANTHROPIC_BASE_URL: `${server().url}${suffix}`, ANTHROPIC_API_KEY: "k" };
      const spec = resolveModel(loadModelCatalog(home, env), "anthropic/claude-haiku-4-5")!;
      const built = createProvider(spec, env, { retryBaseMs: 1, maxAttempts: 1 });
      if (!built.ok) throw new Error(built.message);
      const events = await collect(built.provider.stream(request({ model: spec.model })));
      expect(textOf(events)).toBe("Hello from the mock LLM.");
      expect(server().requests.map((r) => r.path)).toEqual(["/v1/messages"]);
    });
  }
});

describe("provider errors", () => {
  for (const api of APIS) {
    test(`${api}: connection refused names the endpoint and carries no runtime hint`, async () => {
      const dead = await startMockLlmServer();
      await dead.close();
      const end = last(await collect(mockProvider(dead, api, { maxAttempts: 1 }).stream(request())));
      const base = api === "anthropic-messages" ? dead.url : `${dead.url}/v1`;
      expect(end?.type === "error" && end.message).toBe(
        `mock ${api}-model at ${base}: Connection error: connection refused: is the server running, and is the base URL right?`,
      );
    });
  }

  test("Bun's verbose-fetch hint is stripped from socket errors", () => {
    const err = Object.assign(
      new Error(
        "The socket connection was closed unexpectedly. For more information, pass `verbose: true` in the second argument to fetch()",
      ),
      { code: "ECONNRESET" },
    );
    const wrapped = Object.assign(new Error("Connection error."), { name: "APIConnectionError", cause: err });
    expect(classifyError(wrapped, false)).toMatchObject({
      message: "Connection error: the server closed the connection",
      retryable: true,
      connection: true,
    });
    const other = new Error(
      "boom. For more information, pass `verbose: true` in the second argument to fetch()",
    );
    expect(classifyError(other, false).message).toBe("boom.");
  });

  test("Retry-After is read from Headers or a look-alike; anything else carries no wait", () => {
    const retryAfterOf = (headers: unknown) =>
      classifyError(Object.assign(new Error("busy"), { status: 429, headers }), false).retryAfterMs;
    expect(retryAfterOf(new Headers({ "retry-after": "3" }))).toBe(3000);
    expect(retryAfterOf(new Headers({ "retry-after-ms": "250", "retry-after": "3" }))).toBe(250);
    const lookAlike = { get: (name: string) => (name === "retry-after" ? "2" : null) };
    expect(retryAfterOf(lookAlike)).toBe(2000);
    for (const headers of [undefined, "retry-after: 3", { "retry-after": "3" }, { get: 3 }]) {
      expect(retryAfterOf(headers)).toBeUndefined();
    }
    expect(retryAfterOf({ get: () => 4 })).toBeUndefined();
  });
});

describe("models.json models missing a field", () => {
  test("are reported with file, provider, model and field, and never synthesized with defaults", () => {
    const file = writeModels({
      providers: {
        local: {
          api: "openai-completions",
          base_url: "http://127.0.0.1:11434/v1",
          models: [MODEL, { id: "broken", max_output: 10 }, { context_window: 1, max_output: 1 }],
        },
      },
    });
    const catalog = loadModelCatalog(home, {});
    expect(catalog.errors).toEqual([
      {
        file,
        field: "providers.local.models[1].context_window",
        reason: 'missing required field "context_window"; model local/broken was not loaded',
        rejectedModel: "local/broken",
      },
      {
        file,
        field: "providers.local.models[2].id",
        reason: 'missing required field "id"; model #3 of provider local was not loaded',
      },
    ]);
    expect(resolveModel(catalog, "local/qwen3:8b")?.context_window).toBe(32768);
    expect(resolveModel(catalog, "local/broken")).toBeUndefined();
    // A models.json provider lists its models: another name on it is unknown, and says what is listed.
    expect(resolveModel(catalog, "local/other")).toBeUndefined();
    expect(unknownModelMessage(catalog, "local/other")).toContain("local/qwen3:8b");
    expect(unknownModelMessage(catalog, "local/broken")).toContain("was not loaded");
  });
});

describe("a refused key", () => {
  test("names the variable or the models.json field it came from", () => {
    expect(authHint({ provider: "openai", api_key_env: "OPENAI_API_KEY" })).toBe(
      "check OPENAI_API_KEY: its key was refused or lacks access",
    );
    expect(authHint({ provider: "corp", api_key_env: "CORP_KEY" })).toContain(
      'check CORP_KEY (provider "corp" in models.json)',
    );
    expect(authHint({ provider: "corp", api_key: "k" })).toContain('"api_key" of provider "corp"');
    expect(authHint({ provider: "corp" })).toContain("no API key was sent");
  });
});
