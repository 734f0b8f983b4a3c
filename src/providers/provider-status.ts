/**
 * Whether an agent started with this environment and home would have a model provider — the
 * same decision `shard agent` makes at start-up (cli/agent-command.ts discoverModelIfNeeded):
 * a configuring variable, else models.json, else a local OpenAI-compatible server on the usual
 * ports. Used by the daemon's `provider.status` so a page can say how to add one up front.
 */
import { join } from "node:path";
import type { ProviderStatusResult } from "../types/provider-status.ts";
import { nothingConfiguredMessage } from "./create-provider.ts";
import { CONFIG_ENV, discoverLocalServer, localServers, nothingConfigured } from "./discover-model.ts";
import { loadModelsFile } from "./models-file.ts";

type Env = Record<string, string | undefined>;

export async function providerStatus(home: string, env: Env): Promise<ProviderStatusResult> {
  const modelsFile = join(home, "models.json");
  const base = { env_vars: [...CONFIG_ENV], models_file: modelsFile };
  if (!nothingConfigured(env)) {
    const set = CONFIG_ENV.filter((name) => env[name]);
    return { ...base, source: "environment", message: `Configured by ${set.join(", ")}.` };
  }
  if (loadModelsFile(modelsFile).models.length > 0) {
    return { ...base, source: "models_file", message: `Configured by ${modelsFile}.` };
  }
  const found = await discoverLocalServer(localServers(env));
  if (found !== undefined) {
    return {
      ...base,
      source: "local_server",
      local_server: { name: found.server.name, base_url: found.baseUrl, model: found.model },
      message:
        `No provider is configured; new agents use ${found.server.name} at ${found.baseUrl} (${found.model}). ` +
        "Set SHARD_MODEL, OPENAI_BASE_URL or add models.json to choose another.",
    };
  }
  return { ...base, source: "none", message: nothingConfiguredMessage({ ...env, SHARD_HOME: home }) };
}
