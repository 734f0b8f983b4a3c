/**
 * One Runtime generation: a `shard agent` child in its own process group (docs/architecture.md §4),
 * JSONL on stdin/stdout, stderr always drained into the agent's log. It is ready once it has
 * sent `hello` and `sync`; everything after that goes to `onMessage`.
 */
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { constants } from "node:os";
import { dirname } from "node:path";
import type { FileSink, Subprocess } from "bun";
import type { HelloEvent, SyncEvent } from "../../types/agent-events.ts";
import type { AgentEvent } from "../../types/catalog.ts";
import type { AgentCommand } from "../../types/command-table.ts";
import type { Response } from "../../types/response.ts";
import { deltaLineSeqAt } from "../../wire/delta-line.ts";
import { type Failure, failure } from "../../wire/errors.ts";
import { JsonlDecoder, type RunTaken } from "../../wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../../wire/jsonl-encoder.ts";
import { asAgentEvent, asResponse } from "../../wire/validate.ts";

export type RuntimeMessage = AgentEvent | Response;

export interface RuntimeReady {
  ok: true;
  hello: HelloEvent;
  sync: SyncEvent;
}

/**
 * A start that failed. `refused`: the runtime said why and exited (a fatal error before it was
 * ready: its model, mode, tools or session refused): the same manifest cannot start again.
 */
export interface StartFailure extends Failure {
  refused?: true;
}

export interface RuntimeExit {
  /** The exit status, or 128 + the signal number for a signal. */
  code: number;
  reason: string;
}

export interface RuntimeProcessOptions {
  argv: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  logPath: string;
  startTimeoutMs: number;
  /** A runtime on another placement: the hop, named in its start failures (placement-launch.ts). */
  where?: string;
  /** The `server_version` its hello must carry, else the start fails (a stale remote binary). */
  version?: string;
  /** Called synchronously at readiness, before any later message reaches `onMessage`. */
  onReady: (ready: RuntimeReady) => void;
  /** A checked message after readiness, with `line`, the text the runtime wrote for it. */
  onMessage: (message: RuntimeMessage, line: string) => void;
  /**
   * A `message_delta` after readiness in our encoder's shape, taken unparsed (checked by
   * src/wire/delta-line.ts; `seqAt` is where its `,"seq":` member starts; `ascii`: its UTF-8
   * size is its length). Any other line is parsed, checked and goes to `onMessage`.
   */
  onDeltaLine: (line: string, seqAt: number, ascii: boolean) => void;
  /**
   * Offered the ASCII lines of a chunk of output after readiness, from `from` (`bytes` are their
   * bytes): a run of `message_delta` lines there may be taken in place, as `onDeltaLine` would
   * take them one at a time (src/daemon/broker/delta-run.ts). The lines it leaves go on as usual.
   */
  onDeltaRun: (text: string, from: number, bytes: Uint8Array) => RunTaken | undefined;
  /** The lines of one chunk of output have all gone to `onMessage` or `onDeltaLine`. */
  onOutputEnd: () => void;
  onExit: (exit: RuntimeExit) => void;
}

export class RuntimeProcess {
  readonly ready: Promise<RuntimeReady | StartFailure>;
  readonly whenExited: Promise<RuntimeExit>;
  private readonly proc: Subprocess<"pipe", "pipe", "pipe">;
  private settleReady!: (result: RuntimeReady | StartFailure) => void;
  private hello: HelloEvent | undefined;
  private readyDone = false;
  /** A fatal `error` the runtime sent before it was ready: the best start-failure message. */
  private startError: string | undefined;
  private exitedFlag = false;
  /** The last line the process wrote on stderr (bounded): ssh says there why it could not connect. */
  private lastStderrLine = "";

  constructor(private readonly options: RuntimeProcessOptions) {
    this.ready = new Promise((resolve) => {
      this.settleReady = resolve;
    });
    mkdirSync(dirname(options.logPath), { recursive: true, mode: 0o700 });
    const log = openSync(options.logPath, "a", 0o600);
    this.proc = Bun.spawn(options.argv, {
      cwd: options.cwd,
      env: options.env,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      detached: true,
    });
    const timer = setTimeout(() => {
      if (this.readyDone) return;
      this.failStart(`did not become ready within ${options.startTimeoutMs} ms`);
      this.kill("SIGKILL");
    }, options.startTimeoutMs);
    void this.ready.then(() => clearTimeout(timer));
    // Every line the runtime wrote is handled before its exit is reported.
    const outputDone = Promise.all([
      this.readStdout(),
      drainInto(this.proc.stderr, log, (line) => {
        this.lastStderrLine = line;
      }),
    ]);
    this.whenExited = this.proc.exited.then(async () => {
      clearTimeout(timer);
      this.exitedFlag = true;
      await outputDone.catch(() => undefined);
      const exit = describeExit(this.proc.exitCode, this.proc.signalCode);
      if (this.startError !== undefined) this.failStart(this.startError, true);
      else if (options.where !== undefined) {
        const said = this.lastStderrLine === "" ? "" : `: ${this.lastStderrLine}`;
        this.failStart(`exited before it was ready (${exit.reason})${said}; see ${options.logPath}`);
      } else this.failStart(`exited before it was ready (${exit.reason}); see ${options.logPath}`);
      options.onExit(exit);
      return exit;
    });
  }

  get pid(): number {
    return this.proc.pid;
  }

  get exited(): boolean {
    return this.exitedFlag;
  }

  /** One command to the runtime as a JSONL line; false when its stdin is gone (it is exiting). */
  send(command: AgentCommand): boolean {
    if (this.exitedFlag) return false;
    try {
      const stdin: FileSink = this.proc.stdin;
      stdin.write(encodeJsonLine(command));
      stdin.flush();
      return true;
    } catch {
      return false;
    }
  }

  /** Graceful stop: the runtime ends its work and exits on stdin EOF. */
  closeInput(): void {
    try {
      this.proc.stdin.end();
    } catch {
      // already closed
    }
  }

  /** Signals the whole process group, so tools the runtime started go too. */
  kill(signal: "SIGTERM" | "SIGKILL"): void {
    if (this.exitedFlag) return;
    try {
      process.kill(-this.proc.pid, signal);
    } catch {
      // the group is already gone
    }
  }

  private failStart(message: string, refused = false): void {
    if (this.readyDone) return;
    this.readyDone = true;
    const on = this.options.where === undefined ? "" : ` on ${this.options.where}`;
    const failed = failure("RUNTIME_START_FAILED", `the agent runtime${on} ${message}`);
    this.settleReady(refused ? { ...failed, refused: true } : failed);
  }

  private async readStdout(): Promise<void> {
    const decoder = new JsonlDecoder({
      value: (value, line) => this.receive(value, line),
      // A runtime never writes a bad line; if one does, the agent log says so and it carries on.
      error: () => {},
      text: (line, ascii) => this.receiveDeltaLine(line, ascii),
      run: (text, from, bytes) => (this.readyDone ? this.options.onDeltaRun(text, from, bytes) : undefined),
    });
    for await (const chunk of this.proc.stdout) {
      decoder.push(chunk);
      this.options.onOutputEnd();
    }
    decoder.end();
    this.options.onOutputEnd();
  }

  /** Whether `line` went the fast path (the hottest line of a turn: no parse, no schema check). */
  private receiveDeltaLine(line: string, ascii: boolean): boolean {
    if (!this.readyDone) return false;
    const seqAt = deltaLineSeqAt(line);
    if (seqAt === -1) return false;
    this.options.onDeltaLine(line, seqAt, ascii);
    return true;
  }

  private receive(value: unknown, line: string): void {
    const event = asAgentEvent(value);
    const message = event ?? asResponse(value);
    if (!message) return;
    if (this.readyDone) {
      this.options.onMessage(message, line);
      return;
    }
    if (message.type === "hello") {
      const wanted = this.options.version;
      if (wanted !== undefined && message.server_version !== wanted) {
        this.startError = `runs shard ${message.server_version}, and this daemon is shard ${wanted}; run: shard placement install ${placementOf(this.options.where)}`;
        this.failStart(this.startError);
        this.kill("SIGKILL");
        return;
      }
      this.hello = message;
    } else if (message.type === "error" && message.fatal)
      this.startError = `failed: ${message.code}: ${message.message}`;
    else if (message.type === "sync" && this.hello) {
      this.readyDone = true;
      const ready: RuntimeReady = { ok: true, hello: this.hello, sync: message };
      this.options.onReady(ready);
      this.settleReady(ready);
    }
  }
}

/** The placement's name in a `where` label (`placement "x" (ssh …)`). */
function placementOf(where: string | undefined): string {
  return /^placement "([^"]+)"/.exec(where ?? "")?.[1] ?? "<name>";
}

/** The last stderr line kept for a start failure: at most this many characters. */
const STDERR_LINE_MAX = 300;

async function drainInto(
  stream: ReadableStream<Uint8Array>,
  fd: number,
  lastLine: (line: string) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  try {
    for await (const chunk of stream) {
      writeSync(fd, chunk);
      const lines = decoder
        .decode(chunk.subarray(Math.max(0, chunk.length - 4 * STDERR_LINE_MAX)))
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "");
      const last = lines.at(-1);
      if (last !== undefined) lastLine(last.slice(0, STDERR_LINE_MAX));
    }
  } finally {
    closeSync(fd);
  }
}

function describeExit(code: number | null, signal: string | number | null): RuntimeExit {
  if (code !== null) return { code, reason: `exited with code ${code}` };
  const number =
    typeof signal === "number"
      ? signal
      : Object.entries(constants.signals).find(([name]) => name === signal)?.[1];
  return { code: 128 + (number ?? 0), reason: `killed by ${signal ?? "a signal"}` };
}
