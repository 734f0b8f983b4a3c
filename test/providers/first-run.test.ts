/**
 * `shard run` as a new user meets it: the default models print no SDK deprecation warning,
 * a local OpenAI-compatible server is found when nothing is configured, "nothing found"
 * lists every way to configure Shard, and a stalled server shows its retries as progress.
 */
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { RuntimeConfig } from "../../src/agent/create-runtime.ts";
import { discoverModelIfNeeded } from "../../src/cli/agent-command.ts";
import { builtinModels, DEFAULT_ANTHROPIC_MODEL } from "../../src/providers/builtin-models.ts";
import { discoverLocalServer, LOCAL_SERVERS, localServers } from "../../src/providers/discover-model.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { freshHome, runShard } from "./run-shard.ts";
import { type StallingProxy, startStallingProxy } from "./stalling-proxy.ts";

setDefaultTimeout(30_000);

const server = useMockLlmServer({ clearRequestsBeforeEach: true });

/** Something listening on the port that is not an LLM server (404 for /v1/models). */
let notAnLlm: ReturnType<typeof Bun.serve>;
let proxy: StallingProxy;
beforeAll(() => {
  notAnLlm = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("no", { status: 404 }) });
  proxy = startStallingProxy(server().url);
});
afterEach(() => proxy.reset());
afterAll(async () => {
  await notAnLlm.stop(true);
  await proxy.close();
});

const mockPort = () => String(new URL(server().url).port);

describe("default models", () => {
  test("no built-in model is in the installed Anthropic SDK's deprecated list", async () => {
    const sdk = dirname(Bun.resolveSync("@anthropic-ai/sdk/package.json", import.meta.dir));
    const { DEPRECATED_MODELS } = (await import(join(sdk, "internal/data/deprecated-models.js"))) as {
      DEPRECATED_MODELS: Record<string, string>;
    };
    expect(Object.keys(DEPRECATED_MODELS).length).toBeGreaterThan(0);
    const anthropic = builtinModels({}).filter((m) => m.provider === "anthropic");
    expect(anthropic.filter((m) => m.model in DEPRECATED_MODELS).map((m) => m.id)).toEqual([]);
    expect(anthropic[0]!.id).toBe(DEFAULT_ANTHROPIC_MODEL);
  });

  test("a run with the default Anthropic model prints nothing about deprecation", async () => {
    const ran = await runShard(["run", "hi"], {
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: server().url,
      SHARD_RETRY_BASE_MS: "1",
    });
    expect(ran.stderr).not.toMatch(/deprecat/i);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe("Hello from the mock LLM.\n");
    expect(server().requests[0]?.body.model).toBe(DEFAULT_ANTHROPIC_MODEL.replace("anthropic/", ""));
  });

  test("a reasoning level on the default Anthropic model uses adaptive thinking, not a budget", async () => {
    const ran = await runShard(["run", "hi"], {
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: server().url,
    });
    expect(ran.code).toBe(0);
    const body = server().requests[0]?.body;
    expect(body.thinking).toEqual({ type: "adaptive", display: "summarized" });
    expect(body.output_config).toEqual({ effort: "medium" });
  });
});

describe("local server discovery", () => {
  test("the usual ports are Ollama, LM Studio, llama.cpp and vLLM; SHARD_DISCOVER_PORTS replaces them", () => {
    expect(localServers({}).map((s) => s.port)).toEqual([11434, 1234, 8080, 8000]);
    expect(localServers({ SHARD_DISCOVER_PORTS: "1234, 4321" })).toEqual([
      { port: 1234, name: "LM Studio" },
      { port: 4321, name: "a local server" },
    ]);
    expect(LOCAL_SERVERS.map((s) => s.name)).toEqual(["Ollama", "LM Studio", "llama.cpp", "vLLM"]);
  });

  test("probes in parallel and picks the first server in list order that lists a model", async () => {
    const found = await discoverLocalServer([
      { port: notAnLlm.port ?? 0, name: "Ollama" },
      { port: Number(mockPort()), name: "vLLM" },
    ]);
    expect(found).toEqual({
      server: { port: Number(mockPort()), name: "vLLM" },
      baseUrl: `http://127.0.0.1:${mockPort()}/v1`,
      model: "openai/mock-model",
    });
    expect(await discoverLocalServer([{ port: notAnLlm.port ?? 0, name: "Ollama" }])).toBeUndefined();
  });

  test("a server whose model list is malformed is passed over for the next one", async () => {
    // Each answers 200 with a body that is not a usable list: no `data`, `data` not an array,
    // entries that are not objects or have no string id.
    const bodies = ["[1,2]", '{"data":"mock-model"}', '{"data":[null,"x",{"id":7},{"id":""}]}', "not json"];
    const liars = bodies.map((body) =>
      Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(body, { status: 200 }) }),
    );
    try {
      const found = await discoverLocalServer([
        ...liars.map((liar, i) => ({ port: liar.port ?? 0, name: `liar ${i}` })),
        { port: Number(mockPort()), name: "vLLM" },
      ]);
      expect(found?.server.name).toBe("vLLM");
      expect(found?.model).toBe("openai/mock-model");
    } finally {
      for (const liar of liars) await liar.stop(true);
    }
  });

  test("with nothing configured, discoverModelIfNeeded points OpenAI at the server and says so", async () => {
    const home = freshHome();
    const config: RuntimeConfig = {
      home,
      env: { SHARD_DISCOVER_PORTS: `${notAnLlm.port},${mockPort()}` },
      serverVersion: "test",
    };
    const said: string[] = [];
    await discoverModelIfNeeded(config, (line) => said.push(line));
    expect(config.model).toBe("openai/mock-model");
    expect(config.env.OPENAI_BASE_URL).toBe(`http://127.0.0.1:${mockPort()}/v1`);
    expect(said).toEqual([
      `no provider configured; found a local server at http://127.0.0.1:${mockPort()}/v1, using openai/mock-model (set SHARD_MODEL, OPENAI_BASE_URL or models.json to choose)`,
    ]);
  });

  test("a configured models.json provider turns discovery off", async () => {
    const home = freshHome();
    writeFileSync(
      join(home, "models.json"),
      JSON.stringify({
        providers: {
          local: {
            api: "openai-completions",
            base_url: `${server().url}/v1`,
            models: [{ id: "m", context_window: 1000, max_output: 100 }],
          },
        },
      }),
    );
    const config: RuntimeConfig = { home, env: { SHARD_DISCOVER_PORTS: mockPort() }, serverVersion: "test" };
    await discoverModelIfNeeded(config, () => {});
    expect(config.model).toBeUndefined();
    expect(config.env.OPENAI_BASE_URL).toBeUndefined();
  });

  test("shard run with nothing configured uses the server it finds and names it on stderr", async () => {
    const ran = await runShard(["run", "hi"], { SHARD_DISCOVER_PORTS: `${notAnLlm.port},${mockPort()}` });
    expect(ran.stderr).toContain(
      `found a local server at http://127.0.0.1:${mockPort()}/v1, using openai/mock-model`,
    );
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe("Hello from the mock LLM.\n");
    expect(server().requests.at(-1)?.path).toBe("/v1/chat/completions");
  });

  test("nothing found: the error lists every way to configure Shard and the ports it tried", async () => {
    const ran = await runShard(["run", "hi"], { SHARD_DISCOVER_PORTS: String(notAnLlm.port) });
    expect(ran.code).toBe(1);
    for (const way of [
      "ANTHROPIC_API_KEY",
      "OPENAI_API_KEY",
      "OPENAI_BASE_URL",
      join(ran.home, "models.json"),
    ])
      expect(ran.stderr).toContain(way);
    expect(ran.stderr).toContain(`No local server answered on 127.0.0.1:${notAnLlm.port} (a local server).`);
  });
});

describe("stalled server", () => {
  test("shard run shows each retry with its reason, then answers", async () => {
    proxy.hold("silent");
    const ran = await runShard(["run", "hi"], {
      OPENAI_BASE_URL: `${proxy.url}/v1`,
      SHARD_MODEL: "openai/mock-1",
      SHARD_RETRY_BASE_MS: "1",
      SHARD_PROVIDER_TIMEOUT_FIRST_BYTE: "0.05",
    });
    expect(ran.stderr).toMatch(
      new RegExp(
        `^retrying in \\d+ ms, attempt 2/4: openai mock-1 at ${proxy.url}/v1: first byte timed out after 50 ms$`,
        "m",
      ),
    );
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe("Hello from the mock LLM.\n");
  });

  test("models.json timeouts apply to that provider", async () => {
    proxy.hold("silent", "silent");
    const home = freshHome();
    writeFileSync(
      join(home, "models.json"),
      JSON.stringify({
        providers: {
          slow: {
            api: "openai-completions",
            base_url: `${proxy.url}/v1`,
            timeouts: { first_byte: 0.05 },
            models: [{ id: "m", context_window: 1000, max_output: 100 }],
          },
        },
      }),
    );
    const ran = await runShard(
      ["run", "--model", "slow/m", "hi"],
      { SHARD_RETRY_BASE_MS: "1", SHARD_RETRY_MAX_ATTEMPTS: "2" },
      home,
    );
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain(
      `slow m at ${proxy.url}/v1: first byte timed out after 50 ms (gave up after 2 attempts)`,
    );
  });
});
