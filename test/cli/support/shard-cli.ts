/**
 * Runs the `shard` command line as a user would: a real child process with a fresh HOME and
 * SHARD_HOME and only PATH from this process, its output collected whole.
 */
import { SHARD_MAIN, tempDir } from "../../agent/support/agent-process.ts";
import { CHILD_ENV } from "../../support/child-env.ts";

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

export interface SpawnOptions {
  /** What the child reads on stdin: nothing (EOF at once) by default. */
  stdin?: string;
}

export function spawnShard(command: string[], env: Record<string, string> = {}, options: SpawnOptions = {}) {
  const home = tempDir("home");
  return Bun.spawn(command, {
    stdin: options.stdin === undefined ? "ignore" : new Blob([options.stdin]),
    stdout: "pipe",
    stderr: "pipe",
    env: { ...CHILD_ENV, HOME: home, SHARD_HOME: home, ...env },
  });
}

export async function collect(proc: ReturnType<typeof spawnShard>): Promise<Ran> {
  const timer = setTimeout(() => proc.kill("SIGKILL"), 45_000);
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** `shard ARGS` run with the current bun. */
export function shard(
  args: string[],
  env: Record<string, string> = {},
  options: SpawnOptions = {},
): Promise<Ran> {
  return collect(spawnShard([process.execPath, SHARD_MAIN, ...args], env, options));
}

/** util-linux `script`, which gives a command a pseudo-terminal; null where it is missing. */
export const SCRIPT = Bun.which("script");

/**
 * `shard ARGS` with a terminal on stdin, stdout and stderr (through `script`). The terminal
 * merges stdout and stderr, so the output is one text.
 */
export async function shardOnTerminal(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  if (SCRIPT === null) throw new Error("util-linux script is not installed");
  const line = [process.execPath, SHARD_MAIN, ...args].map(shellQuote).join(" ");
  return collect(spawnShard([SCRIPT, "--quiet", "--return", "--command", line, "/dev/null"], env));
}

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
