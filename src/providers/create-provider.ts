/**
 * Builds a `Provider` for a catalog entry. The API key comes from the spec's literal
 * `api_key`, else from the environment variable `api_key_env`.
 *
 * A key is required for the vendors' own hosts (api.openai.com, api.anthropic.com) and for
 * models.json providers that name an `api_key_env` on a non-local host. Anything else — a
 * loopback/private-network server, or OPENAI_BASE_URL/ANTHROPIC_BASE_URL pointing at a
 * compatible server — gets a placeholder key, since the SDKs refuse to run without one.
 */
import { join } from "node:path";
import type { ModelSpec, Provider, ProviderTimeouts } from "../contracts/provider.ts";
import { shardHome } from "../support/shard-home.ts";
import { createAnthropicProvider } from "./anthropic/provider.ts";
import { anthropicSdkBaseUrl, baseUrlProblem } from "./base-url.ts";
import { ANTHROPIC_DEFAULT_BASE_URL, isBuiltinProvider, OPENAI_DEFAULT_BASE_URL } from "./builtin-models.ts";
import { localProbeSummary, nothingConfigured } from "./discover-model.ts";
import { loadModelsFile } from "./models-file.ts";
import { createOpenAICompletionsProvider } from "./openai-completions/provider.ts";
import { createOpenAIResponsesProvider } from "./openai-responses/provider.ts";
import { describeEndpoint, retryPolicyFrom } from "./retry.ts";
import { resolveTimeouts } from "./timeouts.ts";

export interface CreateProviderOptions {
  /** Backoff base in ms (default: env SHARD_RETRY_BASE_MS, else 1000). */
  retryBaseMs?: number;
  /** Attempts including the first (default: env SHARD_RETRY_MAX_ATTEMPTS, else 4). */
  maxAttempts?: number;
  /** Overrides models.json and SHARD_PROVIDER_TIMEOUT_* (tests use a few ms). */
  timeouts?: Partial<ProviderTimeouts>;
}

export type CreateProviderResult =
  | { ok: true; provider: Provider }
  | { ok: false; code: "NOT_FOUND"; message: string };

const OFFICIAL_HOSTS = new Set(["api.openai.com", "api.anthropic.com"]);
export const PLACEHOLDER_API_KEY = "shard-no-key";

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return undefined;
  }
}

function isLocalHost(host: string): boolean {
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host.endsWith(".local") ||
    host === "::1" ||
    /^127\./.test(host) ||
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host) ||
    host === "0.0.0.0" ||
    host === "host.docker.internal"
  );
}

function keyRequired(spec: ModelSpec, baseUrl: string): boolean {
  const host = hostOf(baseUrl);
  if (host === undefined || OFFICIAL_HOSTS.has(host)) return true;
  if (isLocalHost(host)) return false;
  return spec.api_key_env !== undefined && !isBuiltinProvider(spec.provider);
}

/** Every way to give Shard a model, for a user who has configured none. */
export function nothingConfiguredMessage(env: Record<string, string | undefined>): string {
  return (
    "No model provider is configured. Set ANTHROPIC_API_KEY (Anthropic), OPENAI_API_KEY (OpenAI) " +
    "or OPENAI_BASE_URL (an OpenAI-compatible server such as Ollama, e.g. http://127.0.0.1:11434/v1), " +
    `or add a provider to ${join(shardHome(env), "models.json")} (see docs/configuration.md). ` +
    localProbeSummary(env)
  );
}

/** Whether models.json describes any model (then a provider IS configured, just not for every model). */
function modelsFileConfigured(env: Record<string, string | undefined>): boolean {
  return loadModelsFile(join(shardHome(env), "models.json")).models.length > 0;
}

/**
 * Why no provider can be built for `spec` — a bad base URL, or no API key where one is needed —
 * or undefined when one can. Pure apart from reading models.json on the no-key path.
 */
export function providerProblem(
  spec: ModelSpec,
  env: Record<string, string | undefined>,
): string | undefined {
  const configured = baseUrlOf(spec);
  const problem = baseUrlProblem(configured);
  if (problem !== undefined) return `${spec.provider} ${spec.model}: base URL ${problem}`;
  const baseUrl = spec.api === "anthropic-messages" ? anthropicSdkBaseUrl(configured) : configured;
  if (apiKeyOf(spec, env) || !keyRequired(spec, baseUrl)) return undefined;
  const builtin = isBuiltinProvider(spec.provider);
  // "Nothing configured" only when that is true: a models.json provider is a provider.
  if (builtin && nothingConfigured(env) && !modelsFileConfigured(env)) return nothingConfiguredMessage(env);
  const how = spec.api_key_env
    ? `set ${spec.api_key_env}`
    : `add "api_key" or "api_key_env" for it in models.json`;
  return `No API key for ${describeEndpoint(spec, configured)}: ${how}`;
}

function baseUrlOf(spec: ModelSpec): string {
  return (
    spec.base_url ||
    (spec.api === "anthropic-messages" ? ANTHROPIC_DEFAULT_BASE_URL : OPENAI_DEFAULT_BASE_URL)
  );
}

function apiKeyOf(spec: ModelSpec, env: Record<string, string | undefined>): string | undefined {
  return spec.api_key || (spec.api_key_env ? env[spec.api_key_env] : undefined) || undefined;
}

export function createProvider(
  spec: ModelSpec,
  env: Record<string, string | undefined>,
  options: CreateProviderOptions = {},
): CreateProviderResult {
  const problem = providerProblem(spec, env);
  if (problem !== undefined) return { ok: false, code: "NOT_FOUND", message: problem };
  const configured = baseUrlOf(spec);
  const where = `${spec.provider} ${spec.model}`;
  const baseUrl = spec.api === "anthropic-messages" ? anthropicSdkBaseUrl(configured) : configured;
  const apiKey = apiKeyOf(spec, env) ?? PLACEHOLDER_API_KEY;
  const config = {
    spec,
    apiKey,
    baseUrl,
    retry: retryPolicyFrom(env, options),
    timeouts: resolveTimeouts(env, spec.timeouts, options.timeouts),
  };
  switch (spec.api) {
    case "anthropic-messages":
      return { ok: true, provider: createAnthropicProvider(config) };
    case "openai-completions":
      return { ok: true, provider: createOpenAICompletionsProvider(config) };
    case "openai-responses":
      return { ok: true, provider: createOpenAIResponsesProvider(config) };
    default:
      return {
        ok: false,
        code: "NOT_FOUND",
        message: `${where} uses an unknown API: ${String(spec.api)}`,
      };
  }
}
