/** Running ripgrep for `grep` and `find`, with flags that make it agree with the built-in walk. */

/** Path of `rg` on the current PATH, or null. */
export function findRipgrep(): string | null {
  // Pass PATH explicitly: Bun.which otherwise uses the PATH the process started with.
  return Bun.which("rg", { PATH: process.env.PATH ?? "" });
}

/**
 * Common flags: ignore user config, include dotfiles, apply ignore files even outside a git
 * repository, skip the user's global gitignore (the built-in walk cannot see it), sort by path so
 * results are deterministic, and never enter `.git` or `node_modules`. Excludes come last because
 * a later `--glob` wins.
 */
export const RG_COMMON_FLAGS = [
  "--no-config",
  "--hidden",
  "--no-require-git",
  "--no-ignore-global",
  "--sort",
  "path",
];
export const RG_EXCLUDE_FLAGS = ["--glob", "!.git", "--glob", "!node_modules"];

export interface RipgrepRun {
  exitCode: number | null;
  stderr: string;
  /** True when `onLine` asked to stop and rg was killed. */
  stopped: boolean;
}

/**
 * Runs rg and feeds each stdout line to `onLine`; returning false stops the run. rg is killed
 * when stopped or when `signal` aborts. Never throws for a failing rg: the exit code and stderr
 * come back as data.
 */
export async function runRipgrep(
  rgPath: string,
  args: string[],
  cwd: string,
  signal: AbortSignal,
  onLine: (line: string) => boolean,
): Promise<RipgrepRun> {
  const proc = Bun.spawn([rgPath, ...args], { cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const kill = () => proc.kill();
  signal.addEventListener("abort", kill, { once: true });
  const stderrText = new Response(proc.stderr).text();
  let stopped = false;
  try {
    const decoder = new TextDecoder();
    let pending = "";
    const reader = proc.stdout.getReader();
    reading: for (;;) {
      const { done, value } = await reader.read();
      pending += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (!onLine(line)) {
          stopped = true;
          proc.kill();
          await reader.cancel().catch(() => undefined);
          break reading;
        }
      }
      if (done) {
        if (pending !== "") onLine(pending);
        break;
      }
    }
    await proc.exited;
    return { exitCode: proc.exitCode, stderr: await stderrText, stopped };
  } finally {
    signal.removeEventListener("abort", kill);
  }
}
