/**
 * The model catalog: built-in Anthropic/OpenAI models plus `$SHARD_HOME/models.json`.
 *
 * - A models.json model with the same wire id as a built-in replaces it.
 * - `resolveModel` also accepts an arbitrary model on a built-in provider (e.g.
 *   `openai/qwen3:8b` when OPENAI_BASE_URL points at Ollama): the spec is synthesized from
 *   that provider's settings with conservative defaults (context 128000, max output 8192,
 *   no reasoning levels, no price: its cost is unknown). A models.json provider lists its models: any other name on
 *   it is unknown, refused where it is named (agent.create, --model), not at the first prompt.
 */
import { join } from "node:path";
import type { ModelSpec } from "../contracts/provider.ts";
import { baseUrlProblem } from "./base-url.ts";
import {
  builtinModels,
  DEFAULT_ANTHROPIC_MODEL,
  DEFAULT_OPENAI_MODEL,
  isBuiltinProvider,
} from "./builtin-models.ts";
import { type CatalogError, loadModelsFile } from "./models-file.ts";

export type { CatalogError } from "./models-file.ts";

export interface ModelCatalog {
  models: ModelSpec[];
  errors: CatalogError[];
  /** Models declared in models.json that failed validation: never synthesized with defaults. */
  rejected?: ReadonlySet<string>;
}

export const SYNTHESIZED_DEFAULTS = { context_window: 128_000, max_output: 8192 } as const;

const BUILTIN_IDS = new Set(builtinModels({}).map((m) => m.id));

const ENV_BASE_URLS = ["ANTHROPIC_BASE_URL", "OPENAI_BASE_URL"] as const;

export function loadModelCatalog(home: string, env: Record<string, string | undefined>): ModelCatalog {
  const fromFile = loadModelsFile(join(home, "models.json"));
  const fileIds = new Set(fromFile.models.map((m) => m.id));
  const builtins = builtinModels(env).filter((m) => !fileIds.has(m.id));
  const errors: CatalogError[] = [];
  for (const name of ENV_BASE_URLS) {
    const value = env[name];
    const problem = value ? baseUrlProblem(value) : undefined;
    if (problem) errors.push({ file: "environment", field: name, reason: problem });
  }
  errors.push(...fromFile.errors);
  const rejected = new Set(fromFile.errors.flatMap((e) => (e.rejectedModel ? [e.rejectedModel] : [])));
  return { models: [...builtins, ...fromFile.models], errors, rejected };
}

/** Splits a wire id at the first `/` (model ids may contain more slashes, e.g. OpenRouter). */
export function splitModelId(id: string): { provider: string; model: string } | undefined {
  const slash = id.indexOf("/");
  if (slash <= 0 || slash === id.length - 1) return undefined;
  return { provider: id.slice(0, slash), model: id.slice(slash + 1) };
}

export function resolveModel(
  catalog: Pick<ModelCatalog, "models" | "rejected">,
  id: string,
): ModelSpec | undefined {
  const exact = catalog.models.find((m) => m.id === id);
  if (exact) return exact;
  if (catalog.rejected?.has(id)) return undefined;
  const parts = splitModelId(id);
  if (!parts || !isOpenProvider(parts.provider)) return undefined;
  const sibling = catalog.models.find((m) => m.provider === parts.provider);
  if (!sibling) return undefined;
  const spec: ModelSpec = {
    id,
    provider: parts.provider,
    model: parts.model,
    // An unknown OpenAI model goes through Chat Completions, the API every compatible server speaks.
    api: parts.provider === "openai" ? "openai-completions" : sibling.api,
    ...SYNTHESIZED_DEFAULTS,
    reasoning: false,
  };
  if (sibling.base_url) spec.base_url = sibling.base_url;
  if (sibling.api_key !== undefined) spec.api_key = sibling.api_key;
  if (sibling.api_key_env) spec.api_key_env = sibling.api_key_env;
  if (sibling.timeouts) spec.timeouts = sibling.timeouts;
  return spec;
}

/**
 * The model to start with: `SHARD_MODEL`; else the Anthropic default when ANTHROPIC_API_KEY
 * is set; else the OpenAI default when OPENAI_API_KEY or OPENAI_BASE_URL is set; else the
 * first models.json model; else the Anthropic default (provider creation then explains
 * every way to configure a model).
 */
export function defaultModelId(
  catalog: Pick<ModelCatalog, "models">,
  env: Record<string, string | undefined>,
): string {
  if (env.SHARD_MODEL) return env.SHARD_MODEL;
  if (env.ANTHROPIC_API_KEY) return DEFAULT_ANTHROPIC_MODEL;
  if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) return DEFAULT_OPENAI_MODEL;
  const user = catalog.models.find((m) => !BUILTIN_IDS.has(m.id));
  return user?.id ?? DEFAULT_ANTHROPIC_MODEL;
}

/** A built-in provider serves models its catalog does not list (new ones, a compatible server's). */
function isOpenProvider(provider: string): boolean {
  return isBuiltinProvider(provider);
}

/** At most this many ids in a message: a models.json may list hundreds. */
const NAMED_MAX = 12;

function someOf(items: string[]): string {
  const shown = items.slice(0, NAMED_MAX).join(", ");
  return items.length > NAMED_MAX ? `${shown}, … (${items.length - NAMED_MAX} more)` : shown;
}

/**
 * Why `id` does not resolve, naming what would: the known providers for an unknown one, the
 * provider's models for a name it does not list. Only for an id `resolveModel` refused.
 */
export function unknownModelMessage(catalog: Pick<ModelCatalog, "models" | "rejected">, id: string): string {
  const providers = [...new Set(catalog.models.map((m) => m.provider))];
  const parts = splitModelId(id);
  if (!parts)
    return `unknown model "${id}": a model id is provider/model (providers: ${someOf(providers)}), e.g. openai/gpt-4.1`;
  if (catalog.rejected?.has(id))
    return `model "${id}" is declared in models.json but was not loaded: fix the entry its warning names`;
  if (!providers.includes(parts.provider))
    return `unknown model "${id}": there is no provider "${parts.provider}"; the providers are ${someOf(providers)} (add one in models.json)`;
  const listed = catalog.models.filter((m) => m.provider === parts.provider).map((m) => m.id);
  return `unknown model "${id}": provider ${parts.provider} lists only ${someOf(listed)} (add the model to its "models" in models.json)`;
}
