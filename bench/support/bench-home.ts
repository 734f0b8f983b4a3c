/** A temp SHARD_HOME whose models.json points a free `mock/chat` model at the local streaming server. */
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function benchTempDir(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), `shard-bench-${prefix}-`)));
}

export function benchHome(serverUrl: string): string {
  const home = benchTempDir("home");
  const chat = {
    id: "chat",
    context_window: 1_000_000,
    max_output: 4096,
    reasoning: false,
    cost: { input: 0, output: 0 },
  };
  const providers = {
    mock: { api: "openai-completions", base_url: `${serverUrl}/v1`, api_key: "bench", models: [chat] },
  };
  writeFileSync(join(home, "models.json"), JSON.stringify({ providers }));
  return home;
}
