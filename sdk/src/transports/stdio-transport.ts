/**
 * The direct transport: spawns `shard agent` and speaks JSONL on its stdio (docs/protocol.md §1),
 * framing on byte 0x0A only with the shared decoder. Under Bun only (it uses `Bun.spawn`).
 * The child's stderr is drained, its tail kept for the error that reports an early exit.
 */
import { JsonlDecoder } from "../../../src/wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../../../src/wire/jsonl-encoder.ts";
import { ShardError } from "../errors.ts";
import type { ClientCommand, Transport, TransportSink } from "./transport.ts";

export interface SpawnOptions {
  command: string[];
  cwd?: string;
  env?: Record<string, string | undefined>;
}

const STDERR_TAIL_CHARS = 4000;

export class StdioTransport implements Transport {
  private readonly proc: Bun.Subprocess<"pipe", "pipe", "pipe">;
  private stderrTail = "";
  private ended = false;
  /** Resolves with the exit code once the child has exited and its output is read. */
  readonly exited: Promise<number>;

  constructor(options: SpawnOptions, sink: TransportSink) {
    if (typeof Bun === "undefined") {
      throw new ShardError(
        "INVALID_REQUEST",
        "spawning an agent directly needs Bun; under Node connect to a daemon instead (connectDaemon)",
      );
    }
    const proc = spawnRuntime(options);
    this.proc = proc;
    const decoder = new JsonlDecoder({ value: (v) => sink.message(v), error: (e) => sink.invalid(e) });
    const stderrDone = this.drainStderr(proc.stderr);
    const stdoutDone = (async () => {
      for await (const chunk of proc.stdout) decoder.push(chunk);
      decoder.end();
    })();
    this.exited = (async () => {
      await Promise.allSettled([stdoutDone, stderrDone]);
      const code = await proc.exited;
      this.ended = true;
      const tail = this.stderrTail.trim();
      sink.closed(`the agent process exited (code ${code})${tail ? `: ${tail}` : ""}`);
      return code;
    })();
  }

  get pid(): number {
    return this.proc.pid;
  }

  send(command: ClientCommand): void {
    if (this.ended) return;
    try {
      this.proc.stdin.write(encodeJsonLine(command));
      this.proc.stdin.flush();
    } catch {
      // The child is gone; `closed` reports why.
    }
  }

  /** Ends stdin: the agent finishes and exits on EOF (it never leaves an orphan). */
  close(): void {
    try {
      this.proc.stdin.end();
    } catch {
      // already closed
    }
  }

  kill(): void {
    this.proc.kill("SIGKILL");
  }

  private async drainStderr(stderr: ReadableStream<Uint8Array>): Promise<void> {
    const text = new TextDecoder();
    for await (const chunk of stderr) {
      this.stderrTail = (this.stderrTail + text.decode(chunk, { stream: true })).slice(-STDERR_TAIL_CHARS);
    }
  }
}

/** Bun throws when the executable is missing; that becomes a `ShardError` naming the command. */
function spawnRuntime(options: SpawnOptions): Bun.Subprocess<"pipe", "pipe", "pipe"> {
  try {
    return Bun.spawn(options.command, {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      ...(options.env !== undefined ? { env: options.env } : {}),
    });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new ShardError(
      "RUNTIME_START_FAILED",
      `could not start the agent (${options.command[0]}): ${reason}`,
    );
  }
}
