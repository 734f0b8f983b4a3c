/**
 * Runs git for the daemon (workspaces, Changes, checkpoints): no prompts (GIT_TERMINAL_PROMPT=0), C locale, both pipes
 * drained, and a timeout so a stuck git (a lock, a hook) cannot hang a daemon command.
 */
export interface GitResult {
  ok: boolean;
  code: number;
  stdout: string;
  stderr: string;
  /** Stdout went past `maxStdoutBytes`: git was stopped and `stdout` is its beginning. */
  cut?: boolean;
}

export interface GitOptions {
  timeoutMs?: number;
  /** Memory stays bounded whatever the repository holds (a diff can be huge). */
  maxStdoutBytes?: number;
  /** Added to git's environment (e.g. GIT_INDEX_FILE for a private index). */
  env?: Record<string, string>;
}

/** Runs git in one repository (plain `git`, or a wrapper that distrusts the repository's config). */
export type GitRunner = (args: string[], options?: GitOptions) => Promise<GitResult>;

const GIT_TIMEOUT_MS = 60_000;

export async function git(cwd: string, args: string[], options: GitOptions = {}): Promise<GitResult> {
  const timeoutMs = options.timeoutMs ?? GIT_TIMEOUT_MS;
  let proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  try {
    proc = Bun.spawn(["git", ...args], {
      cwd,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, GIT_TERMINAL_PROMPT: "0", LC_ALL: "C", GIT_OPTIONAL_LOCKS: "0", ...options.env },
    });
  } catch (err) {
    // An argument no process can take (a NUL byte) or a cwd that is gone: an answer, not a throw.
    return { ok: false, code: -1, stdout: "", stderr: String(err) };
  }
  const timer = setTimeout(() => proc.kill("SIGKILL"), timeoutMs);
  try {
    const [out, stderr, code] = await Promise.all([
      readCapped(proc.stdout, options.maxStdoutBytes ?? Number.POSITIVE_INFINITY, () => proc.kill("SIGKILL")),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    if (out.cut) return { ok: true, code, stdout: out.text, stderr, cut: true };
    return { ok: code === 0, code, stdout: out.text, stderr };
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

async function readCapped(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
  stop: () => void,
): Promise<{ text: string; cut: boolean }> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for await (const chunk of stream) {
    if (bytes + chunk.length > maxBytes) {
      chunks.push(chunk.subarray(0, maxBytes - bytes));
      stop();
      return { text: new TextDecoder().decode(Buffer.concat(chunks)), cut: true };
    }
    chunks.push(chunk);
    bytes += chunk.length;
  }
  return { text: new TextDecoder().decode(Buffer.concat(chunks)), cut: false };
}
