/**
 * A user who only sets `OPENAI_BASE_URL` (Ollama, vLLM, llama.cpp, LM Studio) should not
 * have to know the server's model names: ask its OpenAI-compatible `GET /models` and take
 * the first one. Only used when nothing else names a model.
 */
import { OPENAI_DEFAULT_BASE_URL } from "./builtin-models.ts";

type Env = Record<string, string | undefined>;

/** True when the default model would be `openai/…` on a server that is not OpenAI's. */
export function wantsModelDiscovery(env: Env): boolean {
  if (env.SHARD_MODEL || env.ANTHROPIC_API_KEY || !env.OPENAI_BASE_URL) return false;
  try {
    return new URL(env.OPENAI_BASE_URL).host !== new URL(OPENAI_DEFAULT_BASE_URL).host;
  } catch {
    return false;
  }
}

/** `openai/<first model id>` from the server, or undefined when it does not answer usefully. */
export async function discoverOpenAiModel(env: Env, timeoutMs = 3000): Promise<string | undefined> {
  const base = env.OPENAI_BASE_URL?.replace(/\/+$/, "");
  if (!base) return undefined;
  try {
    const res = await fetch(`${base}/models`, {
      headers: env.OPENAI_API_KEY ? { authorization: `Bearer ${env.OPENAI_API_KEY}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { data?: { id?: unknown }[] };
    const id = body.data?.find((m) => typeof m.id === "string" && m.id !== "")?.id;
    return typeof id === "string" ? `openai/${id}` : undefined;
  } catch {
    return undefined;
  }
}
