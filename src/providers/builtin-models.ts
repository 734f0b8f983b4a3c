/** Built-in catalog entries (prices in USD per million tokens, as published by the vendors). */
import type { ModelSpec } from "../contracts/provider.ts";

type Levels = NonNullable<ModelSpec["reasoning_levels"]>;

const CLAUDE_THINKING: Levels = [
  { id: "low", label: "Low", description: "Extended thinking, ~2k token budget" },
  { id: "medium", label: "Medium", description: "Extended thinking, ~8k token budget" },
  { id: "high", label: "High", description: "Extended thinking, ~24k token budget" },
];
const O_SERIES: Levels = [
  { id: "low", label: "Low" },
  { id: "medium", label: "Medium" },
  { id: "high", label: "High" },
];
const GPT5: Levels = [{ id: "minimal", label: "Minimal" }, ...O_SERIES];
const MAX_EFFORTS: Levels = [
  { id: "xhigh", label: "Extra high" },
  { id: "max", label: "Max" },
];
const GPT6: Levels = [...O_SERIES, ...MAX_EFFORTS];
/** Adaptive thinking: the level is the effort (`output_config.effort`). */
const CLAUDE_EFFORT: Levels = [...O_SERIES, ...MAX_EFFORTS];

export const BUILTIN_PROVIDERS = ["anthropic", "openai"] as const;

/** A provider Shard knows without a models.json entry. */
export function isBuiltinProvider(provider: string): boolean {
  return BUILTIN_PROVIDERS.some((builtin) => builtin === provider);
}

export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";
export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";

type Entry = Omit<ModelSpec, "id" | "provider" | "api" | "api_key_env" | "base_url"> & {
  api?: ModelSpec["api"];
};

/**
 * Current models only: the installed SDK warns on every request for a model in its
 * deprecated list (`@anthropic-ai/sdk/internal/data/deprecated-models`), and the first
 * entry of each list is that provider's default. test/providers/defaults.test.ts checks both.
 */
const ANTHROPIC: Entry[] = [
  {
    model: "claude-sonnet-5-5",
    context_window: 1_000_000,
    max_output: 128_000,
    reasoning: true,
    thinking: "adaptive",
    reasoning_levels: CLAUDE_EFFORT,
    cost: { input: 2, output: 10, cache_read: 0.2, cache_write: 2.5 },
  },
  {
    model: "claude-opus-5-5",
    context_window: 1_000_000,
    max_output: 128_000,
    reasoning: true,
    thinking: "adaptive",
    reasoning_levels: CLAUDE_EFFORT,
    cost: { input: 4, output: 20, cache_read: 0.4, cache_write: 5 },
  },
  {
    model: "claude-haiku-4-5",
    context_window: 200_000,
    max_output: 64_000,
    reasoning: true,
    reasoning_levels: CLAUDE_THINKING,
    cost: { input: 1, output: 5, cache_read: 0.1, cache_write: 1.25 },
  },
];

const OPENAI: Entry[] = [
  {
    // Tool calls on the GPT-6 models need the Responses API.
    model: "gpt-6.1-sol",
    api: "openai-responses",
    context_window: 1_050_000,
    max_output: 128_000,
    reasoning: true,
    reasoning_levels: GPT6,
    cost: { input: 2, output: 10, cache_read: 0.1 },
  },
  {
    model: "gpt-4.1",
    context_window: 1_047_576,
    max_output: 32_768,
    reasoning: false,
    cost: { input: 2, output: 8, cache_read: 0.5 },
  },
  {
    model: "gpt-4.1-mini",
    context_window: 1_047_576,
    max_output: 32_768,
    reasoning: false,
    cost: { input: 0.4, output: 1.6, cache_read: 0.1 },
  },
  {
    model: "o4-mini",
    context_window: 200_000,
    max_output: 100_000,
    reasoning: true,
    reasoning_levels: O_SERIES,
    cost: { input: 1.1, output: 4.4, cache_read: 0.275 },
  },
  {
    model: "gpt-5",
    api: "openai-responses",
    context_window: 400_000,
    max_output: 128_000,
    reasoning: true,
    reasoning_levels: GPT5,
    cost: { input: 1.25, output: 10, cache_read: 0.125 },
  },
];

export const DEFAULT_ANTHROPIC_MODEL = `anthropic/${ANTHROPIC[0]?.model}`;
export const DEFAULT_OPENAI_MODEL = `openai/${OPENAI[0]?.model}`;

/** Built-in models; base URLs follow ANTHROPIC_BASE_URL / OPENAI_BASE_URL when set. */
export function builtinModels(env: Record<string, string | undefined>): ModelSpec[] {
  const anthropicBase = env.ANTHROPIC_BASE_URL || undefined;
  const openaiBase = env.OPENAI_BASE_URL || undefined;
  return [
    ...ANTHROPIC.map(
      (e): ModelSpec => ({
        ...e,
        id: `anthropic/${e.model}`,
        provider: "anthropic",
        api: e.api ?? "anthropic-messages",
        api_key_env: "ANTHROPIC_API_KEY",
        ...(anthropicBase ? { base_url: anthropicBase } : {}),
      }),
    ),
    ...OPENAI.map(
      (e): ModelSpec => ({
        ...e,
        id: `openai/${e.model}`,
        provider: "openai",
        api: e.api ?? "openai-completions",
        api_key_env: "OPENAI_API_KEY",
        ...(openaiBase ? { base_url: openaiBase } : {}),
      }),
    ),
  ];
}
