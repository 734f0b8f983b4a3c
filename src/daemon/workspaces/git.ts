/**
 * Runs git for the workspace manager: no prompts (GIT_TERMINAL_PROMPT=0), C locale, both pipes
 * drained, and a timeout so a stuck git (a lock, a hook) cannot hang a daemon command.
 */
export interface GitResult {
  ok: boolean;
  code: number;
  stdout: string;
  stderr: string;
}

export const GIT_TIMEOUT_MS = 60_000;

export async function git(cwd: string, args: string[], timeoutMs = GIT_TIMEOUT_MS): Promise<GitResult> {
  const proc = Bun.spawn(["git", ...args], {
    cwd,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, GIT_TERMINAL_PROMPT: "0", LC_ALL: "C", GIT_OPTIONAL_LOCKS: "0" },
  });
  const timer = setTimeout(() => proc.kill("SIGKILL"), timeoutMs);
  try {
    const [stdout, stderr, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    return { ok: code === 0, code, stdout, stderr };
  } catch (err) {
    return { ok: false, code: -1, stdout: "", stderr: String(err) };
  } finally {
    clearTimeout(timer);
  }
}

/** The first line of git's complaint, for an error message (never a path git printed of its own dirs). */
export function gitComplaint(result: GitResult): string {
  const line = result.stderr.split("\n").find((l) => l.trim() !== "") ?? `git exited ${result.code}`;
  return line.replace(/^(fatal|error): /, "").trim();
}
