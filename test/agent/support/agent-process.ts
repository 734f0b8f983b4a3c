/**
 * Drives a real `shard agent` child process over stdio JSONL, as a client would.
 * Used by the integration tests; no part of the runtime is mocked.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { JsonlDecoder } from "../../../src/wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../../../src/wire/jsonl-encoder.ts";
import { eventValidator, validateResult } from "../../../src/wire/validate.ts";
import { CHILD_ENV } from "../../support/child-env.ts";
import { makeTempDir } from "../../support/temp-dirs.ts";

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary event fields.
export type Msg = { type: string } & Record<string, any>;

/** The `shard` command line entry point, run with the current bun. */
export const SHARD_MAIN = resolve(import.meta.dir, "../../../src/cli/main.ts");

export interface AgentOptions {
  /** Mock LLM server base URL (no /v1). */
  llmUrl: string;
  home?: string;
  cwd?: string;
  args?: string[];
  env?: Record<string, string>;
  /** `null` omits `--model` (a resumed session then restores its own model). */
  model?: string | null;
}

export function tempDir(prefix: string): string {
  return makeTempDir(`shard-${prefix}-`);
}

/** A SHARD_HOME whose models.json points a `mock` provider at the local server. */
export function mockHome(llmUrl: string, extraModels: object[] = []): string {
  const home = tempDir("home");
  mkdirSync(home, { recursive: true });
  const models = [
    {
      id: "chat",
      context_window: 100_000,
      max_output: 4096,
      reasoning: false,
      cost: { input: 1, output: 2 },
    },
    ...extraModels,
  ];
  writeFileSync(
    join(home, "models.json"),
    JSON.stringify({
      providers: {
        mock: { api: "openai-completions", base_url: `${llmUrl}/v1`, api_key: "test", models },
        mockresp: {
          api: "openai-responses",
          base_url: `${llmUrl}/v1`,
          api_key: "test",
          models: [
            {
              id: "resp",
              context_window: 100_000,
              max_output: 4096,
              reasoning: false,
              cost: { input: 1, output: 2 },
            },
          ],
        },
        mockant: {
          api: "anthropic-messages",
          base_url: llmUrl,
          api_key: "test",
          models: [
            {
              id: "claude",
              context_window: 200_000,
              max_output: 4096,
              reasoning: true,
              reasoning_levels: [
                { id: "low", label: "Low" },
                { id: "medium", label: "Medium" },
                { id: "high", label: "High" },
              ],
              cost: { input: 3, output: 15 },
            },
          ],
        },
      },
    }),
  );
  return home;
}

export class AgentProcess {
  readonly events: Msg[] = [];
  /** Every message the agent sent that does not match its protocol schema (must stay empty). */
  readonly schemaViolations: string[] = [];
  readonly proc: ReturnType<typeof Bun.spawn>;
  readonly home: string;
  readonly cwd: string;
  stderr = "";
  /** Every raw stdout byte chunk, for checks on the exact bytes written (e.g. escaping). */
  readonly stdoutChunks: Uint8Array[] = [];
  private waiters: {
    pred: (m: Msg) => boolean;
    from: number;
    resolve: (m: Msg) => void;
    reject: (err: Error) => void;
  }[] = [];
  /** Set once stdout has ended: nothing more can arrive, so a wait for more fails at once. */
  private outputEnded = false;
  readonly exited: Promise<number>;
  /** Settles once stdout has ended and every line the agent wrote is in `events`. */
  readonly stdoutDone: Promise<void>;

  constructor(opts: AgentOptions) {
    this.home = opts.home ?? mockHome(opts.llmUrl);
    this.cwd = opts.cwd ?? tempDir("cwd");
    const model = opts.model === null ? [] : ["--model", opts.model ?? "mock/chat"];
    const args = ["agent", "--cwd", this.cwd, ...model, ...(opts.args ?? [])];
    const proc = Bun.spawn([process.execPath, SHARD_MAIN, ...args], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      env: {
        ...CHILD_ENV,
        HOME: this.home,
        SHARD_HOME: this.home,
        SHARD_RETRY_BASE_MS: "5",
        ...opts.env,
      },
    });
    this.proc = proc;
    const decoder = new JsonlDecoder({
      value: (v) => this.receive(v as Msg),
      error: (e) => {
        throw new Error(`agent wrote a bad line: ${e.message}`);
      },
    });
    const stderrDone = (async () => {
      for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) {
        this.stderr += new TextDecoder().decode(chunk);
      }
    })();
    this.stdoutDone = (async () => {
      try {
        for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
          this.stdoutChunks.push(chunk.slice());
          decoder.push(chunk);
        }
        decoder.end();
      } finally {
        // An agent that died fails the waits on it now (with its stderr), not at their timeout.
        this.outputEnded = true;
        await Promise.all([stderrDone, proc.exited]); // the exit code and stderr go into the error
        for (const w of this.waiters.splice(0)) w.reject(new Error(this.endedMessage()));
      }
    })();
    this.exited = proc.exited;
  }

  private receive(msg: Msg): void {
    const checked = eventValidator.validate(msg);
    const result = msg.type === "response" && msg.success ? validateResult(msg.command, msg.data) : checked;
    for (const c of [checked, result]) {
      if (!c.ok) this.schemaViolations.push(`${c.error.message} in ${JSON.stringify(msg).slice(0, 300)}`);
    }
    this.events.push(msg);
    const index = this.events.length - 1;
    this.waiters = this.waiters.filter((w) => {
      if (index >= w.from && w.pred(msg)) {
        w.resolve(msg);
        return false;
      }
      return true;
    });
  }

  send(message: object): void {
    this.writeRaw(encodeJsonLine(message));
  }

  writeRaw(text: string | Uint8Array): void {
    const stdin = this.proc.stdin as import("bun").FileSink;
    stdin.write(text);
    stdin.flush();
  }

  private endedMessage(): string {
    const code = this.proc.signalCode ?? this.proc.exitCode ?? "still running";
    return `the agent's stdout ended (exit: ${code}) before the awaited event; got: ${this.events.map((e) => e.type).join(", ")}\nstderr: ${this.stderr}`;
  }

  /** Waits for the first event at or after index `from` matching `pred`; fails once stdout has ended. */
  waitFor(pred: (m: Msg) => boolean, from = 0, timeoutMs = 20_000): Promise<Msg> {
    for (let i = from; i < this.events.length; i++)
      if (pred(this.events[i]!)) return Promise.resolve(this.events[i]!);
    if (this.outputEnded) return Promise.reject(new Error(this.endedMessage()));
    return new Promise((resolvePromise, reject) => {
      const waiter = {
        pred,
        from,
        resolve: (m: Msg) => {
          clearTimeout(timer);
          resolvePromise(m);
        },
        reject: (err: Error) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(
          new Error(
            `timed out waiting for an event; got: ${this.events.map((e) => e.type).join(", ")}\nstderr: ${this.stderr}`,
          ),
        );
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  waitType(type: string, from = 0, timeoutMs?: number): Promise<Msg> {
    return this.waitFor((m) => m.type === type, from, timeoutMs);
  }

  /** Waits for a `status` event with this status at or after index `from`. */
  waitStatus(status: string, from = 0, timeoutMs?: number): Promise<Msg> {
    return this.waitFor((m) => m.type === "status" && m.status === status, from, timeoutMs);
  }

  /** Waits for the end of a turn begun at or after `from` and the idle status after it; returns the events since `from`. */
  async waitTurnEnd(from: number): Promise<Msg[]> {
    await this.waitType("turn_end", from);
    await this.waitStatus("idle", from);
    return this.events.slice(from);
  }

  /** Sends a command with an id and resolves with its response. */
  async request(message: Msg): Promise<Msg> {
    const id = message.id ?? `r${Math.random().toString(36).slice(2)}`;
    const from = this.events.length;
    this.send({ ...message, id });
    return this.waitFor((m) => m.type === "response" && m.id === id, from);
  }

  /**
   * The barrier before asserting that something did NOT happen: the agent handles stdin in
   * order, so once the response to this later `list_modes` is in, every event that earlier
   * input made the agent emit before then is in `events` too. Returns the index after it.
   */
  async barrier(): Promise<number> {
    const res = await this.request({ type: "list_modes" });
    if (!res.success) throw new Error(`barrier: list_modes failed: ${JSON.stringify(res.error)}`);
    return this.events.length;
  }

  /** Waits for the process to end and for everything it wrote to be read; returns its exit code. */
  async exit(): Promise<number> {
    const code = await this.exited;
    await this.stdoutDone;
    return code;
  }

  /** Sends a prompt and waits for the end of the turn it starts. */
  async prompt(message: string, extra: object = {}): Promise<Msg[]> {
    const from = this.events.length;
    const res = await this.request({ type: "prompt", message, ...extra });
    if (!res.success) throw new Error(`prompt rejected: ${JSON.stringify(res.error)}`);
    return this.waitTurnEnd(from);
  }

  typesSince(from: number): string[] {
    return this.events.slice(from).map((e) => e.type);
  }

  /** Kills the agent the hard way (no clean-up runs) and waits for it to end. */
  async kill9(): Promise<number> {
    this.proc.kill("SIGKILL");
    return this.exited;
  }

  async close(): Promise<number> {
    try {
      (this.proc.stdin as import("bun").FileSink).end();
    } catch {
      // already closed
    }
    const timer = setTimeout(() => this.proc.kill("SIGKILL"), 10_000);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(resolve(path, ".."), { recursive: true });
    writeFileSync(path, content);
  }
}
