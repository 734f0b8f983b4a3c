/** Runs one of sdk/examples/ as its user would (`bun sdk/examples/<name>.ts …`) and reads its output. */
import { resolve } from "node:path";
import { CHILD_ENV } from "../../support/child-env.ts";

export const EXAMPLES = resolve(import.meta.dir, "../../../sdk/examples");

export class ExampleProcess {
  readonly proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  stdout = "";
  stderr = "";
  private readonly wakers: (() => void)[] = [];
  private ended = false;
  readonly exited: Promise<number>;

  constructor(name: string, args: string[], options: { cwd: string; env: Record<string, string> }) {
    const proc = Bun.spawn([process.execPath, resolve(EXAMPLES, `${name}.ts`), ...args], {
      cwd: options.cwd,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      env: { ...CHILD_ENV, SHARD_RETRY_BASE_MS: "5", ...options.env },
    });
    this.proc = proc;
    const text = new TextDecoder();
    const out = (async () => {
      for await (const chunk of proc.stdout) {
        this.stdout += text.decode(chunk, { stream: true });
        for (const wake of this.wakers.splice(0)) wake();
      }
    })();
    const err = (async () => {
      for await (const chunk of proc.stderr) this.stderr += text.decode(chunk, { stream: true });
    })();
    this.exited = (async () => {
      await Promise.all([out, err]);
      const code = await proc.exited;
      this.ended = true;
      for (const wake of this.wakers.splice(0)) wake();
      return code;
    })();
  }

  /** Resolves once stdout has a line containing `text`; fails if the example ends first. */
  async line(text: string): Promise<void> {
    for (;;) {
      if (this.stdout.split("\n").some((l) => l.includes(text))) return;
      if (this.ended)
        throw new Error(`the example ended without printing "${text}":\n${this.stdout}\n${this.stderr}`);
      await new Promise<void>((wake) => this.wakers.push(wake));
    }
  }

  /** Waits for the exit; fails with the output when it is not 0. */
  async success(): Promise<string> {
    const code = await this.exited;
    if (code !== 0) throw new Error(`the example exited ${code}:\n${this.stdout}\n${this.stderr}`);
    return this.stdout;
  }
}
