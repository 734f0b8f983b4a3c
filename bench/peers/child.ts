/** A tool's child process: its exit, and the tail of its stderr for the crash report. */
import type { Subprocess } from "bun";

const STDERR_TAIL = 8000;

export class Child {
  readonly proc: Subprocess<"pipe", "pipe", "pipe">;
  /** Rejects once the process exits (every wait races it, so a crash ends the wait at once). */
  readonly died: Promise<never>;
  private stderrTail = "";
  private exitCode: number | null = null;

  constructor(cmd: string[], options: { cwd: string; env: Record<string, string | undefined> }) {
    this.proc = Bun.spawn(cmd, { ...options, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    void this.drainStderr();
    this.died = this.proc.exited.then((code) => {
      this.exitCode = code;
      throw new Error(this.describeExit());
    });
    this.died.catch(() => {});
  }

  get pid(): number {
    return this.proc.pid;
  }

  get alive(): boolean {
    return this.exitCode === null && this.proc.exitCode === null;
  }

  describeExit(): string {
    const signal = this.proc.signalCode ? ` (${this.proc.signalCode})` : "";
    const tail = crashSummary(this.stderrTail);
    return `exited with code ${this.proc.exitCode}${signal}${tail ? `: ${tail}` : ""}`;
  }

  private async drainStderr(): Promise<void> {
    const decoder = new TextDecoder();
    for await (const chunk of this.proc.stderr) {
      this.stderrTail = (this.stderrTail + decoder.decode(chunk, { stream: true })).slice(-STDERR_TAIL);
    }
  }

  /** Stops the process (SIGTERM, then SIGKILL after `graceMs`) and waits for it. */
  async stop(graceMs = 3000): Promise<void> {
    if (!this.alive) return;
    this.proc.kill("SIGTERM");
    const timer = setTimeout(() => this.proc.kill("SIGKILL"), graceMs);
    await this.proc.exited;
    clearTimeout(timer);
  }
}

const ERROR_HEAD = /^((?:[A-Z]\w*)?Error\b|FATAL ERROR|panic|error:)/;
const ERROR_LINE = /error|fatal|errno|code: '|ENOBUFS|EAGAIN|EPIPE|out of memory/i;

/**
 * The error a crash printed, on one line: its `SomeError: …` / `FATAL ERROR: …` lines (a
 * stack's frames are left out), else the lines naming an error, else the last lines.
 */
export function crashSummary(text: string, count = 3): string {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !l.startsWith("at "));
  const heads = lines.filter((l) => ERROR_HEAD.test(l));
  const code = lines.find((l) => /^code: '/.test(l));
  if (heads.length > 0) return [...heads.slice(0, 2), ...(code ? [code] : [])].join(" / ").slice(0, 400);
  const errors = lines.filter((l) => ERROR_LINE.test(l));
  return (errors.length > 0 ? errors : lines).slice(-count).join(" / ").slice(0, 400);
}
