/**
 * opencode (`opencode-ai`) as `opencode serve`: an `@ai-sdk/openai-compatible` provider at the
 * mock (OPENCODE_CONFIG), private XDG dirs (config primed at install: see install.ts), a turn is
 * POST /session/:id/prompt_async followed on GET /event until the session is idle again.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Child } from "./child.ts";
import { withDeadline } from "./deadline.ts";
import { LineScanner } from "./lines.ts";
import { opencodeSessionError, opencodeSessionIdle, opencodeSseLine } from "./stream-events.ts";
import { type BenchEvent, EventWaiter, type ToolDriver } from "./tool.ts";

export interface OpencodeSetup {
  bin: string;
  version: string;
  /** XDG_CONFIG_HOME with opencode's own packages installed (the install step primes it). */
  configHome: string;
  /** HOME and the other XDG dirs of this benchmark run. */
  home: string;
  cwd: string;
  llmUrl: string;
}

export function opencodeConfig(llmUrl: string): object {
  return {
    $schema: "https://opencode.ai/config.json",
    provider: {
      mock: {
        npm: "@ai-sdk/openai-compatible",
        name: "Mock",
        options: { baseURL: `${llmUrl}/v1`, apiKey: "bench" },
        models: { chat: { name: "chat", limit: { context: 1_000_000, output: 4096 } } },
      },
    },
    model: "mock/chat",
    small_model: "mock/chat",
    autoupdate: false,
    share: "disabled",
  };
}

export function opencodeEnv(
  setup: Omit<OpencodeSetup, "bin" | "version" | "cwd">,
): Record<string, string | undefined> {
  const configFile = join(setup.home, "opencode.json");
  writeFileSync(configFile, JSON.stringify(opencodeConfig(setup.llmUrl)));
  return {
    ...process.env,
    HOME: setup.home,
    XDG_CONFIG_HOME: setup.configHome,
    XDG_DATA_HOME: join(setup.home, "data"),
    XDG_CACHE_HOME: join(setup.home, "cache"),
    XDG_STATE_HOME: join(setup.home, "state"),
    OPENCODE_CONFIG: configFile,
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
  };
}

/** The URL `opencode serve` prints once it listens. */
export function parseListening(text: string): string | undefined {
  return /listening on (http:\/\/[^\s]+)/.exec(text)?.[1];
}

const SERVE_ARGS = ["serve", "--port", "0", "--hostname", "127.0.0.1"];

export function opencodeTool(setup: OpencodeSetup): ToolDriver {
  const env = opencodeEnv(setup);
  return {
    id: "opencode",
    label: `opencode ${setup.version}`,
    version: setup.version,
    command: `opencode ${SERVE_ARGS.join(" ")} (OPENCODE_DISABLE_MODELS_FETCH/AUTOUPDATE/LSP_DOWNLOAD=1, private XDG dirs)`,
    readCall: (file) => ({ name: "read", args: { filePath: file } }),
    async start(timeoutMs) {
      const child = new Child([setup.bin, ...SERVE_ARGS], { cwd: setup.cwd, env });
      try {
        const base = await withDeadline(
          Promise.race([listeningUrl(child), child.died]),
          timeoutMs,
          "for opencode to listen",
        );
        await withDeadline(Promise.race([healthy(base), child.died]), timeoutMs, "for the health route");
        return await connect(child, base, timeoutMs);
      } catch (err) {
        await child.stop();
        throw err;
      }
    },
  };
}

async function listeningUrl(child: Child): Promise<string> {
  const decoder = new TextDecoder();
  const reader = child.proc.stdout.getReader();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`opencode closed its stdout before listening: ${child.describeExit()}`);
    text += decoder.decode(value, { stream: true });
    const url = parseListening(text);
    if (url) {
      void (async () => {
        while (!(await reader.read()).done); // keep draining, so its writes never block
      })().catch(() => {});
      return url;
    }
  }
}

async function healthy(base: string): Promise<void> {
  for (;;) {
    const res = await fetch(`${base}/global/health`).catch(() => undefined);
    if (res?.ok) {
      const body = (await res.json()) as { healthy?: unknown };
      if (body.healthy === true) return;
    }
    await Bun.sleep(5);
  }
}

async function post(base: string, path: string, body: unknown): Promise<Response> {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  return res;
}

async function connect(child: Child, base: string, timeoutMs: number) {
  const waiter = new EventWaiter(child.died);
  const events = new AbortController();
  const connected = waiter.until((e) => e.type === "server.connected", timeoutMs, "for the event stream");
  const stream = await fetch(`${base}/event`, { signal: events.signal });
  if (!stream.body) throw new Error("GET /event: no body");
  const scanner = new LineScanner((line) => waiter.take(opencodeSseLine(line)));
  void (async () => {
    try {
      for await (const chunk of stream.body as ReadableStream<Uint8Array>) scanner.push(chunk);
    } catch {
      // aborted at close
    }
  })();
  await connected;
  let sessionId: string | undefined;
  return {
    rootPid: child.pid,
    async turn(prompt: string, ms: number) {
      if (!sessionId) {
        const session = (await (await post(base, "/session", {})).json()) as { id: string };
        sessionId = session.id;
      }
      const id = sessionId;
      const before = waiter.deltas;
      let busy = false;
      let failure: string | undefined;
      // The idle that ends the turn follows this turn's busy (the last turn's idle may come late).
      const end = waiter.until(
        (e: BenchEvent) => {
          failure ??= opencodeSessionError(e, id);
          if (e.type === "session.status" && (e.properties as { sessionID?: unknown })?.sessionID === id)
            busy ||= (e.properties as { status?: { type?: unknown } }).status?.type === "busy";
          return busy && opencodeSessionIdle(e, id);
        },
        ms,
        "for the session to go idle",
      );
      await post(base, `/session/${id}/prompt_async`, {
        parts: [{ type: "text", text: prompt }],
        model: { providerID: "mock", modelID: "chat" },
      });
      await end;
      if (failure) throw new Error(`opencode: ${failure}`);
      return { deltas: waiter.deltas - before };
    },
    async close() {
      events.abort();
      await child.stop(3000);
    },
  };
}
