/**
 * A `shard` command running as a child process that the test talks to while it runs: its
 * output is collected as it arrives, and `waitFor` resolves once a stream shows a pattern.
 */
import { SHARD_MAIN } from "../../agent/support/agent-process.ts";
import { CHILD_ENV } from "../../support/child-env.ts";

type Stream = "stdout" | "stderr";

export class LiveCli {
  readonly proc: Bun.Subprocess<"pipe", "pipe", "pipe">;
  readonly output: Record<Stream, string> = { stdout: "", stderr: "" };
  readonly exited: Promise<number>;
  private readonly wakers: Array<() => void> = [];
  private done = false;

  constructor(args: string[], env: Record<string, string>) {
    this.proc = Bun.spawn([process.execPath, SHARD_MAIN, ...args], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      env: { ...CHILD_ENV, ...env },
    });
    const pump = async (name: Stream, stream: ReadableStream<Uint8Array>) => {
      const utf8 = new TextDecoder();
      for await (const chunk of stream) {
        this.output[name] += utf8.decode(chunk, { stream: true });
        this.wake();
      }
    };
    void pump("stdout", this.proc.stdout);
    void pump("stderr", this.proc.stderr);
    this.exited = this.proc.exited.then((code) => {
      this.done = true;
      this.wake();
      return code;
    });
  }

  /** Resolves once `stream` matches; rejects if the process exits first. */
  async waitFor(stream: Stream, pattern: RegExp | string): Promise<void> {
    const matches = () =>
      typeof pattern === "string" ? this.output[stream].includes(pattern) : pattern.test(this.output[stream]);
    while (!matches()) {
      if (this.done) {
        throw new Error(
          `exited before ${stream} showed ${pattern}:\n${this.output.stdout}\n${this.output.stderr}`,
        );
      }
      await new Promise<void>((resolve) => this.wakers.push(resolve));
    }
  }

  writeLine(line: string): void {
    this.proc.stdin.write(`${line}\n`);
    this.proc.stdin.flush();
  }

  endInput(): void {
    this.proc.stdin.end();
  }

  kill(): void {
    this.proc.kill("SIGKILL");
  }

  private wake(): void {
    for (const wake of this.wakers.splice(0)) wake();
  }
}
