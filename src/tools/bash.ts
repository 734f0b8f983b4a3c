/**
 * `bash`: run a shell command in its own process group with a timeout, streaming merged
 * stdout/stderr and keeping a bounded tail of it (docs/architecture.md §6.2).
 */
import { constants } from "node:os";
import { type Static, Type } from "@sinclair/typebox";
import type { Tool, ToolContext, ToolResult } from "../contracts/tool.ts";
import type { CommandSandbox } from "../sandbox/agent-sandbox.ts";
import { describeError } from "../support/describe-error.ts";
import type { SandboxMode } from "../types/sandbox.ts";
import { OutputTail } from "./output-tail.ts";
import { killProcessGroup, processGroupAlive } from "./process-group.ts";
import type { ProcessRegistry } from "./process-registry.ts";
import { errorResult } from "./tool-result.ts";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES } from "./truncate.ts";

const BashParams = Type.Object({
  command: Type.String({ description: "The bash command line to run (executed with `bash -c`)." }),
  timeout: Type.Optional(
    Type.Number({
      exclusiveMinimum: 0,
      description: "Timeout in seconds; the command and everything it started is killed when it expires.",
    }),
  ),
  unsandboxed: Type.Optional(
    Type.Boolean({
      description:
        "Run outside the OS sandbox. Only for a command the sandbox blocked (network, writes outside the " +
        "working directory); the user is always asked first.",
    }),
  ),
});
export type BashArgs = Static<typeof BashParams>;

export interface BashToolOptions {
  /** Used when the call gives no timeout. Default 120 s. */
  defaultTimeoutMs?: number;
  /** Upper bound for a requested timeout. Default 10 min. */
  maxTimeoutMs?: number;
  maxLines?: number;
  maxBytes?: number;
  /** Time between SIGTERM and SIGKILL when the group is killed. */
  killGraceMs?: number;
  /** How long to keep reading after the shell exited while background jobs still hold its pipes. */
  backgroundDrainMs?: number;
  /** Records each running group under $SHARD_HOME so a later agent can kill it after a kill -9. */
  processes?: ProcessRegistry;
  /** Confines each command (docs/sandbox.md); absent or `off` runs it as the user. */
  sandbox?: CommandSandbox;
}

export function createBashTool(options: BashToolOptions = {}): Tool<typeof BashParams> {
  const defaultTimeoutMs = options.defaultTimeoutMs ?? 120_000;
  const maxTimeoutMs = Math.max(options.maxTimeoutMs ?? 600_000, defaultTimeoutMs);
  const limits = {
    maxLines: options.maxLines ?? DEFAULT_MAX_LINES,
    maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
  };
  const killGraceMs = options.killGraceMs ?? 2000;
  const backgroundDrainMs = options.backgroundDrainMs ?? 250;
  const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

  return {
    name: "bash",
    description:
      "Run a bash command in the working directory and return its combined stdout and stderr. stdin is closed, " +
      `so interactive programs get EOF. Output keeps the last ${limits.maxLines} lines / ${limits.maxBytes / 1024} KB ` +
      "and the rest is dropped: redirect a long output to a file (`cmd > out.log 2>&1`) and read or grep it. " +
      `Default timeout ${seconds(defaultTimeoutMs)}, at most ${seconds(maxTimeoutMs)}; on timeout the command and ` +
      "all its child processes are killed. Background jobs (`cmd &`) keep running after the command returns but " +
      "their later output is not captured: redirect it to a file. A non-zero exit code is reported as an error " +
      "together with the output.",
    parameters: BashParams,
    isReadOnly: false,
    paths: () => [],
    render: (args) => ({ kind: "command", command: args.command }),
    execute: async (args, ctx) => {
      const requested = args.timeout !== undefined ? args.timeout * 1000 : defaultTimeoutMs;
      const confined =
        args.unsandboxed === true ? undefined : options.sandbox?.wrap(["bash", "-c", args.command]);
      const mode = confined === undefined ? "off" : (options.sandbox?.mode() ?? "off");
      const result = await runCommand(args.command, Math.min(requested, maxTimeoutMs), ctx, confined);
      if (options.sandbox === undefined) return result;
      return { ...explainDenial(result, mode, ctx.cwd), sandbox: mode };
    },
  };

  async function runCommand(
    command: string,
    timeoutMs: number,
    ctx: ToolContext,
    confined: { argv: string[]; env: Record<string, string> } | undefined,
  ): Promise<ToolResult> {
    if (ctx.signal.aborted) return errorResult("Command aborted before it started.");
    const started = performance.now();
    let proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
    try {
      proc = Bun.spawn(confined?.argv ?? ["bash", "-c", command], {
        cwd: ctx.cwd,
        ...(confined !== undefined ? { env: confined.env } : {}),
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
        detached: true,
      });
    } catch (error) {
      return errorResult(`Could not start bash in ${ctx.cwd}: ${describeError(error)}`);
    }

    const release = options.processes?.track(proc.pid, command) ?? (() => {});
    const output = new OutputTail(limits);
    const onText = (text: string) => {
      output.push(text);
      ctx.onUpdate?.(text);
    };
    // One read at a time per pipe: a command that prints faster than we handle it blocks on
    // the full pipe instead of growing our memory.
    const readers = [proc.stdout.getReader(), proc.stderr.getReader()];
    let lastData = Date.now();
    const drains = readers.map(async (reader) => {
      const decoder = new TextDecoder();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          lastData = Date.now();
          onText(decoder.decode(value, { stream: true }));
        }
      } catch {
        // Cancelled after the shell exited; whatever arrived is kept.
      }
      onText(decoder.decode());
    });

    let stopReason: "timeout" | "aborted" | null = null;
    let killing: Promise<void> | null = null;
    const stop = (reason: "timeout" | "aborted") => {
      stopReason ??= reason;
      killing ??= killProcessGroup(proc.pid, killGraceMs);
    };
    const timer = setTimeout(() => stop("timeout"), timeoutMs);
    const onAbort = () => stop("aborted");
    ctx.signal.addEventListener("abort", onAbort, { once: true });

    try {
      await proc.exited;
      // The command is over: background jobs it left behind are not subject to its timeout.
      clearTimeout(timer);
      // Output written just before the exit may still be in the pipe: idle time counts from here.
      lastData = Date.now();
      await drainAfterExit(proc.pid, drains, readers, () => lastData);
      if (killing !== null) await killing;
    } finally {
      clearTimeout(timer);
      ctx.signal.removeEventListener("abort", onAbort);
      // Whatever went wrong, a running group never outlives its call unnoticed.
      if (proc.exitCode === null && proc.signalCode === null) await killProcessGroup(proc.pid, 0);
      release();
    }

    const duration_ms = Math.round(performance.now() - started);
    const collected = output.finish();
    const text = collected.text === "" ? "(no output)" : collected.text;
    if (stopReason === "timeout") {
      return errorResult(
        `${text}\n\nCommand timed out after ${seconds(timeoutMs)} and was killed with all its child processes. ` +
          `Pass a larger timeout (max ${seconds(maxTimeoutMs)}) or run it in the background with output redirected to a file.`,
        { duration_ms },
      );
    }
    if (stopReason === "aborted") return errorResult(`${text}\n\nCommand aborted.`, { duration_ms });

    const exit_code = exitCodeOf(proc);
    return { content: { kind: "text", text }, is_error: exit_code !== 0, exit_code, duration_ms };
  }

  /**
   * Once the shell has exited, read until both pipes close. If background jobs still hold them
   * open, stop once no data came for `backgroundDrainMs` (at most 5× that in all) instead of
   * waiting for the jobs. A process that left the group (`setsid`) can hold the pipes with the
   * group empty, so even then EOF is awaited for `backgroundDrainMs` only.
   */
  async function drainAfterExit(
    pgid: number,
    drains: Promise<void>[],
    readers: ReadableStreamDefaultReader<Uint8Array>[],
    lastData: () => number,
  ): Promise<void> {
    const allDrained = Promise.all(drains).then(() => true);
    const deadline = Date.now() + 5 * backgroundDrainMs;
    while (Date.now() < deadline) {
      if (!processGroupAlive(pgid)) {
        const done = await Promise.race([allDrained, Bun.sleep(backgroundDrainMs).then(() => false)]);
        if (done) return;
        break;
      }
      const idleFor = Date.now() - lastData();
      if (idleFor >= backgroundDrainMs) break;
      const wait = Math.min(backgroundDrainMs - idleFor, deadline - Date.now());
      const done = await Promise.race([allDrained, Bun.sleep(Math.max(wait, 1)).then(() => false)]);
      if (done) return;
    }
    await Promise.all(readers.map((reader) => reader.cancel().catch(() => undefined)));
    await allDrained;
  }
}

/** What a sandbox refusal looks like in a failed command's output. */
const SANDBOX_DENIAL =
  /Read-only file system|Permission denied|Operation not permitted|Network is unreachable|Could not resolve host|Temporary failure in name resolution|Name or service not known|getaddrinfo|ENETUNREACH|EROFS|EACCES|CONNECT tunnel failed, response 403|Tunnel connection failed: 403|blocked by the Shard sandbox's network allowlist/;

/**
 * A confined command that failed the way a sandbox refusal fails says so, for the model and the
 * person: what was blocked and how to ask for more, instead of a bare "Read-only file system".
 */
function explainDenial(result: ToolResult, mode: SandboxMode, cwd: string): ToolResult {
  const content = result.content;
  if (mode === "off" || !result.is_error || content.kind === "json") return result;
  const said = content.kind === "text" ? content.text : content.message;
  if (!SANDBOX_DENIAL.test(said)) return result;
  const writable = mode === "read-only" ? "only its TMPDIR" : `only ${cwd} and its TMPDIR`;
  const note =
    `\n\n[sandbox] This command ran in the ${mode} sandbox: ${writable} can be written, secrets and ` +
    "$SHARD_HOME are hidden, and the network is off but for the allowlist. If it failed because of " +
    "that and the command is needed as it is, call bash again with unsandboxed: true; the user will " +
    "be asked.";
  return {
    ...result,
    content:
      content.kind === "text" ? { kind: "text", text: said + note } : { kind: "error", message: said + note },
  };
}

function exitCodeOf(proc: Bun.Subprocess): number {
  if (proc.exitCode !== null) return proc.exitCode;
  return 128 + signalNumber(proc.signalCode);
}

/** The number of a signal Bun reports by name (or already as a number); 0 when there is none. */
function signalNumber(signal: NodeJS.Signals | number | null): number {
  if (signal === null) return 0;
  if (typeof signal === "number") return signal;
  return constants.signals[signal] ?? 0;
}
