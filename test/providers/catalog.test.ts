/** Model catalog: built-ins, `models.json` (real files in a temp SHARD_HOME), defaults and resolution. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  defaultModelId,
  loadModelCatalog,
  resolveModel,
  unknownModelMessage,
} from "../../src/providers/catalog.ts";
import { computeCost } from "../../src/providers/cost.ts";

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "shard-catalog-"));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

function writeModels(data: unknown): string {
  const file = join(home, "models.json");
  writeFileSync(file, typeof data === "string" ? data : JSON.stringify(data));
  return file;
}

const LOCAL = {
  api: "openai-completions",
  base_url: "http://127.0.0.1:11434/v1",
  api_key_env: "LOCAL_KEY",
  models: [
    {
      id: "qwen3:8b",
      context_window: 32768,
      max_output: 8192,
      reasoning: false,
      cost: { input: 0, output: 0 },
    },
  ],
};

describe("built-ins", () => {
  test("anthropic and openai models with prices, windows and reasoning levels", () => {
    const { models, errors } = loadModelCatalog(home, {});
    expect(errors).toEqual([]);
    const ids = models.map((m) => m.id);
    for (const id of [
      "anthropic/claude-sonnet-5-5",
      "anthropic/claude-opus-5-5",
      "anthropic/claude-haiku-4-5",
      "openai/gpt-6.1-sol",
      "openai/gpt-4.1",
      "openai/gpt-4.1-mini",
      "openai/o4-mini",
      "openai/gpt-5",
    ]) {
      expect(ids).toContain(id);
    }
    const gpt5 = models.find((m) => m.id === "openai/gpt-5")!;
    expect(gpt5.api).toBe("openai-responses");
    expect(gpt5.reasoning_levels?.map((l) => l.id)).toEqual(["minimal", "low", "medium", "high"]);
    expect(models.find((m) => m.id === "openai/o4-mini")!.reasoning_levels?.map((l) => l.id)).toEqual([
      "low",
      "medium",
      "high",
    ]);
    const sonnet = models.find((m) => m.id === "anthropic/claude-sonnet-5-5")!;
    expect(sonnet).toMatchObject({
      api: "anthropic-messages",
      api_key_env: "ANTHROPIC_API_KEY",
      reasoning: true,
      thinking: "adaptive",
    });
    expect(sonnet.cost?.input).toBeGreaterThan(0);
    expect(sonnet.context_window).toBe(1_000_000);
    for (const m of models) expect(m.api_key).toBeUndefined();
  });

  test("base URLs follow ANTHROPIC_BASE_URL / OPENAI_BASE_URL", () => {
    const { models } = loadModelCatalog(home, {
      ANTHROPIC_BASE_URL: "http://proxy.example/anthropic",
      OPENAI_BASE_URL: "http://127.0.0.1:8000/v1",
    });
    expect(models.find((m) => m.id === "anthropic/claude-haiku-4-5")!.base_url).toBe(
      "http://proxy.example/anthropic",
    );
    expect(models.find((m) => m.id === "openai/gpt-4.1")!.base_url).toBe("http://127.0.0.1:8000/v1");
  });
});

describe("models.json", () => {
  test("a good file adds provider/model entries", () => {
    writeModels({ providers: { local: LOCAL } });
    const { models, errors } = loadModelCatalog(home, {});
    expect(errors).toEqual([]);
    expect(models.find((m) => m.id === "local/qwen3:8b")).toEqual({
      id: "local/qwen3:8b",
      provider: "local",
      model: "qwen3:8b",
      api: "openai-completions",
      base_url: "http://127.0.0.1:11434/v1",
      api_key_env: "LOCAL_KEY",
      context_window: 32768,
      max_output: 8192,
      reasoning: false,
      cost: { input: 0, output: 0 },
    });
  });

  test("optional reasoning_levels, literal api_key and cache prices are kept", () => {
    writeModels({
      providers: {
        router: {
          api: "openai-responses",
          base_url: "https://router.example/v1",
          api_key: "literal-key",
          models: [
            {
              id: "vendor/thinker",
              context_window: 100000,
              max_output: 4000,
              reasoning: true,
              reasoning_levels: [
                { id: "low", label: "Low" },
                { id: "high", label: "High", description: "slow" },
              ],
              cost: { input: 1, output: 2, cache_read: 0.5 },
            },
          ],
        },
      },
    });
    const { models, errors } = loadModelCatalog(home, {});
    expect(errors).toEqual([]);
    const m = models.find((x) => x.id === "router/vendor/thinker")!;
    expect(m.model).toBe("vendor/thinker");
    expect(m.api_key).toBe("literal-key");
    expect(m.reasoning_levels).toHaveLength(2);
    expect(m.cost?.cache_read).toBe(0.5);
  });

  test("bad JSON is reported with the file and the built-ins still load", () => {
    const file = writeModels("{ providers: nope");
    const { models, errors } = loadModelCatalog(home, {});
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file, field: "(file)" });
    expect(errors[0]!.reason).toMatch(/invalid JSON/);
    expect(models.some((m) => m.id === "openai/gpt-4.1")).toBe(true);
  });

  test("a missing field names its JSON path; the other models and providers still load", () => {
    const file = writeModels({
      providers: {
        local: {
          ...LOCAL,
          models: [{ id: "broken", max_output: 10 }, LOCAL.models[0]],
        },
        other: {
          api: "anthropic-messages",
          base_url: "http://127.0.0.1:9/",
          models: [{ id: "m", context_window: 1, max_output: 1 }],
        },
      },
    });
    const { models, errors } = loadModelCatalog(home, {});
    expect(errors).toEqual([
      {
        file,
        field: "providers.local.models[0].context_window",
        reason: 'missing required field "context_window"; model local/broken was not loaded',
        rejectedModel: "local/broken",
      },
    ]);
    expect(models.map((m) => m.id)).toContain("local/qwen3:8b");
    expect(models.map((m) => m.id)).toContain("other/m");
    expect(models.map((m) => m.id)).not.toContain("local/broken");
  });

  test("a wrong type names its JSON path and the value", () => {
    const file = writeModels({
      providers: { local: { ...LOCAL, models: [{ ...LOCAL.models[0], context_window: "32k" }] } },
    });
    const { errors } = loadModelCatalog(home, {});
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file, field: "providers.local.models[0].context_window" });
    expect(errors[0]!.reason).toContain('"32k"');
  });

  test("an unknown api lists the accepted values; that provider is skipped, others load", () => {
    const file = writeModels({ providers: { bad: { ...LOCAL, api: "gemini" }, local: LOCAL } });
    const { models, errors } = loadModelCatalog(home, {});
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file, field: "providers.bad.api" });
    expect(errors[0]!.reason).toContain("openai-completions, openai-responses, anthropic-messages");
    expect(models.some((m) => m.provider === "bad")).toBe(false);
    expect(models.some((m) => m.id === "local/qwen3:8b")).toBe(true);
  });

  test("a file without providers reports the root field", () => {
    const file = writeModels({ models: [] });
    const { errors, models } = loadModelCatalog(home, {});
    expect(errors).toEqual([{ file, field: "providers", reason: "missing required field" }]);
    expect(models.length).toBeGreaterThan(0);
  });

  test("a models.json entry with a built-in id replaces the built-in", () => {
    writeModels({
      providers: {
        openai: {
          api: "openai-completions",
          models: [{ id: "gpt-4.1", context_window: 5000, max_output: 100 }],
        },
      },
    });
    const { models } = loadModelCatalog(home, {});
    const matches = models.filter((m) => m.id === "openai/gpt-4.1");
    expect(matches).toHaveLength(1);
    expect(matches[0]!.context_window).toBe(5000);
  });
});

describe("defaultModelId", () => {
  test("SHARD_MODEL wins, then Anthropic key, then OpenAI key or base URL, then models.json", () => {
    writeModels({ providers: { local: LOCAL } });
    const catalog = loadModelCatalog(home, {});
    expect(defaultModelId(catalog, { SHARD_MODEL: "local/qwen3:8b", ANTHROPIC_API_KEY: "k" })).toBe(
      "local/qwen3:8b",
    );
    expect(defaultModelId(catalog, { ANTHROPIC_API_KEY: "k", OPENAI_API_KEY: "k" })).toBe(
      "anthropic/claude-sonnet-5-5",
    );
    expect(defaultModelId(catalog, { OPENAI_API_KEY: "k" })).toBe("openai/gpt-6.1-sol");
    expect(defaultModelId(catalog, { OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" })).toBe(
      "openai/gpt-6.1-sol",
    );
    expect(defaultModelId(catalog, {})).toBe("local/qwen3:8b");
  });

  test("with nothing configured it still names a model", () => {
    expect(defaultModelId(loadModelCatalog(home, {}), {})).toBe("anthropic/claude-sonnet-5-5");
  });
});

describe("resolveModel", () => {
  test("returns catalog entries as they are", () => {
    const catalog = loadModelCatalog(home, {});
    expect(resolveModel(catalog, "openai/o4-mini")?.reasoning_levels).toHaveLength(3);
  });

  test("synthesizes an arbitrary model on a known provider with conservative defaults", () => {
    const catalog = loadModelCatalog(home, { OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" });
    expect(resolveModel(catalog, "openai/llama3.2:3b")).toEqual({
      id: "openai/llama3.2:3b",
      provider: "openai",
      model: "llama3.2:3b",
      api: "openai-completions",
      base_url: "http://127.0.0.1:11434/v1",
      api_key_env: "OPENAI_API_KEY",
      context_window: 128000,
      max_output: 8192,
      reasoning: false,
    });
    // No price is known for it: its cost is unknown, not 0.
    expect(
      computeCost(resolveModel(catalog, "openai/llama3.2:3b")!, { input: 1000, output: 10 }),
    ).toBeUndefined();
    expect(resolveModel(catalog, "anthropic/claude-future")?.api).toBe("anthropic-messages");
  });

  test("unknown providers and malformed ids resolve to nothing", () => {
    const catalog = loadModelCatalog(home, {});
    expect(resolveModel(catalog, "nobody/model")).toBeUndefined();
    expect(resolveModel(catalog, "gpt-4.1")).toBeUndefined();
    expect(resolveModel(catalog, "openai/")).toBeUndefined();
  });

  test("an unknown id is explained by what exists, never told to be provider/model when it is", () => {
    const catalog = loadModelCatalog(home, {});
    const unknownProvider = unknownModelMessage(catalog, "nobody/model");
    expect(unknownProvider).toContain('no provider "nobody"');
    expect(unknownProvider).toContain("anthropic, openai");
    expect(unknownProvider).not.toContain("Use provider/model");
    expect(unknownModelMessage(catalog, "gpt-4.1")).toContain("a model id is provider/model");
  });
});
