/**
 * Finding a model when the user named none:
 *
 * - only `OPENAI_BASE_URL` is set (Ollama, vLLM, llama.cpp, LM Studio): ask that server's
 *   OpenAI-compatible `GET /models` and take the first model;
 * - nothing at all is configured: probe the usual local servers on 127.0.0.1, all at once
 *   with one short deadline, and use the first (in list order) that lists a model.
 */
import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { isRecord } from "../support/is-record.ts";
import { OPENAI_DEFAULT_BASE_URL } from "./builtin-models.ts";

type Env = Record<string, string | undefined>;

export interface LocalServer {
  port: number;
  name: string;
}

/** The default ports of the common local OpenAI-compatible servers, in order of preference. */
export const LOCAL_SERVERS: readonly LocalServer[] = [
  { port: 11434, name: "Ollama" },
  { port: 1234, name: "LM Studio" },
  { port: 8080, name: "llama.cpp" },
  { port: 8000, name: "vLLM" },
];

/** Total time for probing every local port; a local server answers `/v1/models` in milliseconds. */
export const LOCAL_PROBE_TIMEOUT_MS = 300;

export const CONFIG_ENV: readonly string[] = [
  "SHARD_MODEL",
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_BASE_URL",
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
];

/** True when the default model would be `openai/…` on a server that is not OpenAI's. */
export function wantsModelDiscovery(env: Env): boolean {
  if (env.SHARD_MODEL || env.ANTHROPIC_API_KEY || !env.OPENAI_BASE_URL) return false;
  try {
    return new URL(env.OPENAI_BASE_URL).host !== new URL(OPENAI_DEFAULT_BASE_URL).host;
  } catch {
    return false;
  }
}

/** True when no environment variable names a model, a key or a server. */
export function nothingConfigured(env: Env): boolean {
  return CONFIG_ENV.every((name) => !env[name]);
}

/** The ports to probe: `SHARD_DISCOVER_PORTS` (comma-separated) or the usual ones. */
export function localServers(env: Env): LocalServer[] {
  const raw = env.SHARD_DISCOVER_PORTS;
  if (raw === undefined) return [...LOCAL_SERVERS];
  return raw
    .split(",")
    .map((p) => Number(p.trim()))
    .filter((port) => Number.isInteger(port) && port > 0 && port < 65536)
    .map((port) => LOCAL_SERVERS.find((s) => s.port === port) ?? { port, name: "a local server" });
}

/** What the local probe found, for the "nothing configured" message. */
export function localProbeSummary(env: Env): string {
  const servers = localServers(env);
  if (servers.length === 0) return "Looking for a local server is off (SHARD_DISCOVER_PORTS is empty).";
  return `No local server answered on ${servers.map((s) => `127.0.0.1:${s.port} (${s.name})`).join(", ")}.`;
}

/** What is read of an OpenAI-style `GET /models` answer (the server is not trusted to send it). */
const ModelListSchema = Type.Object({ data: Type.Array(Type.Unknown()) });

/** The first model id a `GET <base>/models` lists, or undefined. */
async function firstModel(base: string, signal: AbortSignal, apiKey?: string): Promise<string | undefined> {
  try {
    const res = await fetch(`${base.replace(/\/+$/, "")}/models`, {
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      signal,
    });
    if (!res.ok) return undefined;
    const body: unknown = await res.json();
    if (!Value.Check(ModelListSchema, body)) return undefined;
    for (const m of body.data) if (isRecord(m) && typeof m.id === "string" && m.id !== "") return m.id;
    return undefined;
  } catch {
    return undefined;
  }
}

/** `openai/<first model id>` from the server, or undefined when it does not answer usefully. */
export async function discoverOpenAiModel(env: Env, timeoutMs = 3000): Promise<string | undefined> {
  if (!env.OPENAI_BASE_URL) return undefined;
  const id = await firstModel(env.OPENAI_BASE_URL, AbortSignal.timeout(timeoutMs), env.OPENAI_API_KEY);
  return id === undefined ? undefined : `openai/${id}`;
}

export interface FoundLocalServer {
  server: LocalServer;
  /** OpenAI-style base URL, with `/v1`. */
  baseUrl: string;
  /** `openai/<id>` */
  model: string;
}

/** Probes every server in parallel within one deadline; the earliest in `servers` wins. */
export async function discoverLocalServer(
  servers: readonly LocalServer[],
  timeoutMs = LOCAL_PROBE_TIMEOUT_MS,
): Promise<FoundLocalServer | undefined> {
  const signal = AbortSignal.timeout(timeoutMs);
  const answers = await Promise.all(
    servers.map(async (server) => {
      const baseUrl = `http://127.0.0.1:${server.port}/v1`;
      const id = await firstModel(baseUrl, signal);
      return id === undefined ? undefined : { server, baseUrl, model: `openai/${id}` };
    }),
  );
  return answers.find((a) => a !== undefined);
}
