/**
 * First run: when the daemon reports no model provider at all, the control room says how to
 * add one — API key variables, models.json, or a local OpenAI-compatible server — before a
 * prompt could fail. With a local server found, it says which one new agents use.
 */
import { For, Match, Switch } from "solid-js";
import type { createProviderStatus } from "./provider-status.ts";

const MODELS_EXAMPLE = `{
  "providers": {
    "local": {
      "api": "openai-completions",
      "base_url": "http://127.0.0.1:11434/v1",
      "models": [{ "id": "qwen3:8b", "context_window": 32768, "max_output": 8192 }]
    }
  }
}`;

export function FirstRun(props: { provider: ReturnType<typeof createProviderStatus> }) {
  const status = () => props.provider.status.latest;
  return (
    <Switch>
      <Match when={status()?.source === "none" ? status() : undefined}>
        {(s) => (
          <section class="first-run" data-testid="first-run" aria-label="add a model provider">
            <h2>Add a model provider</h2>
            <p>Agents need a model before they can answer. The daemon found none; pick one of these:</p>
            <ol>
              <li>
                <strong>An API key.</strong> Set <code>ANTHROPIC_API_KEY</code> or <code>OPENAI_API_KEY</code>{" "}
                in the environment of <code>shard daemon</code> and restart it.
              </li>
              <li>
                <strong>A local server.</strong> Start an OpenAI-compatible server (Ollama on port 11434, LM
                Studio on 1234, llama.cpp on 8080, vLLM on 8000) — the daemon finds it — or point{" "}
                <code>OPENAI_BASE_URL</code> at one, e.g. <code>http://127.0.0.1:11434/v1</code>.
              </li>
              <li>
                <strong>models.json.</strong> Describe your providers in{" "}
                <code data-testid="models-file">{s().models_file}</code>:<pre>{MODELS_EXAMPLE}</pre>
              </li>
            </ol>
            <p class="muted" data-testid="first-run-daemon-said">
              The daemon said: {s().message}
            </p>
            <p class="muted">
              Variables it reads:{" "}
              <For each={s().env_vars}>
                {(name, i) => (
                  <>
                    {i() > 0 ? ", " : ""}
                    <code>{name}</code>
                  </>
                )}
              </For>
              .
            </p>
            <button type="button" data-testid="first-run-recheck" onClick={() => props.provider.recheck()}>
              Check again
            </button>
          </section>
        )}
      </Match>
      <Match when={status()?.local_server}>
        {(found) => (
          <p class="provider-note muted" data-testid="provider-local-server">
            No provider is configured; new agents use {found().name} at <code>{found().base_url}</code> (
            {found().model}).
          </p>
        )}
      </Match>
    </Switch>
  );
}
