/**
 * git on a placement, for the daemon (docs/placements.md, workspaces and the Changes view):
 * each call runs `shard placement git` through the placement, the argv the session transfers
 * use (ssh with every word quoted and no forwarding, a container engine, the command
 * template), with the request on stdin. The answer is a value whatever happens: a link that
 * fails, a stale binary on the far side and a timeout are a failed GitResult naming why.
 * Stdout is bounded on both sides; the far side distrusts the repository's config.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { GitOptions, GitResult, GitRunner } from "../git/git.ts";
import { describeError } from "../support/describe-error.ts";
import {
  type GitRequest,
  GitRunAnswerSchema,
  MAX_REMOTE_STDOUT_BYTES,
  MAX_REMOTE_TIMEOUT_MS,
  RealpathAnswerSchema,
  RemovedAnswerSchema,
  type SnapshotAnswer,
  SnapshotAnswerSchema,
  WorktreesDirAnswerSchema,
} from "./git-request.ts";
import { placementArgv } from "./placement-argv.ts";
import type { NamedPlacement } from "./placement-config.ts";

const GIT_TIMEOUT_MS = 60_000;
/** The hop itself (ssh's ConnectTimeout is 10 s, a container start takes a few). */
const LINK_MS = 20_000;

export interface PlacementGitContext {
  /** The daemon's home: the local end (ssh, the engine's client) runs there. */
  home: string;
  /** The daemon's environment: ssh needs HOME and SSH_AUTH_SOCK, an engine its variables. */
  env: Record<string, string | undefined>;
}

/** A runner for git in `cwd` (a path on the placement). */
export function placementGit(
  placement: NamedPlacement,
  context: PlacementGitContext,
  cwd: string,
): GitRunner {
  return async (args: string[], options: GitOptions = {}): Promise<GitResult> => {
    const maxStdout = Math.min(options.maxStdoutBytes ?? MAX_REMOTE_STDOUT_BYTES, MAX_REMOTE_STDOUT_BYTES);
    const timeoutMs = Math.min(options.timeoutMs ?? GIT_TIMEOUT_MS, MAX_REMOTE_TIMEOUT_MS);
    const request: GitRequest = {
      op: "git",
      cwd,
      args,
      ...(options.env !== undefined ? { env: options.env } : {}),
      timeout_ms: timeoutMs,
      max_stdout_bytes: maxStdout,
    };
    const answer = await ask(placement, context, request, timeoutMs, maxStdout);
    if (!answer.ok) return { ok: false, code: -1, stdout: "", stderr: answer.message };
    if (!Value.Check(GitRunAnswerSchema, answer.value))
      return { ok: false, code: -1, stdout: "", stderr: `${where(placement)}: an answer that is not git's` };
    const { code, stdout, stderr, cut } = answer.value;
    if (cut === true) return { ok: true, code, stdout, stderr, cut: true };
    return { ok: code === 0, code, stdout, stderr };
  };
}

/** The working tree at `cwd` on the placement as a tree object there. */
export async function placementSnapshot(
  placement: NamedPlacement,
  context: PlacementGitContext,
  cwd: string,
): Promise<SnapshotAnswer> {
  const answer = await ask(placement, context, { op: "snapshot", cwd }, GIT_TIMEOUT_MS, 64 * 1024);
  if (!answer.ok) return { ok: false, notGit: false, message: answer.message };
  if (!Value.Check(SnapshotAnswerSchema, answer.value))
    return { ok: false, notGit: false, message: `${where(placement)}: an answer that is not a snapshot` };
  return answer.value;
}

/** The canonical form of `path` there; undefined when nothing is there. */
export async function placementRealpath(
  placement: NamedPlacement,
  context: PlacementGitContext,
  path: string,
): Promise<Found<string | undefined>> {
  const answer = await askChecked(placement, context, { op: "realpath", path }, RealpathAnswerSchema);
  return answer.ok ? { ok: true, value: answer.value.real ?? undefined } : answer;
}

/** Where the far side keeps the daemon's worktrees. */
export async function placementWorktreesDir(
  placement: NamedPlacement,
  context: PlacementGitContext,
): Promise<Found<string>> {
  const answer = await askChecked(placement, context, { op: "worktrees_dir" }, WorktreesDirAnswerSchema);
  return answer.ok ? { ok: true, value: answer.value.path } : answer;
}

/** Removes `path` there while it is below `dir`; false when it was not. */
export async function placementRemoveBelow(
  placement: NamedPlacement,
  context: PlacementGitContext,
  path: string,
  dir: string,
): Promise<Found<boolean>> {
  const answer = await askChecked(placement, context, { op: "remove_below", path, dir }, RemovedAnswerSchema);
  return answer.ok ? { ok: true, value: answer.value.removed } : answer;
}

/** An answer, or why there is none (the link, the far side, or the question itself). */
export type Found<T> = { ok: true; value: T } | { ok: false; message: string };

async function askChecked<S extends TSchema>(
  placement: NamedPlacement,
  context: PlacementGitContext,
  request: GitRequest,
  schema: S,
): Promise<Found<Static<S>>> {
  const answer = await ask(placement, context, request, GIT_TIMEOUT_MS, 64 * 1024);
  if (!answer.ok) return answer;
  if (!Value.Check(schema, answer.value))
    return { ok: false, message: `${where(placement)}: shard placement git gave an answer of another shape` };
  return { ok: true, value: answer.value };
}

type Asked = { ok: true; value: unknown } | { ok: false; message: string };

async function ask(
  placement: NamedPlacement,
  context: PlacementGitContext,
  request: GitRequest,
  timeoutMs: number,
  maxStdout: number,
): Promise<Asked> {
  let proc: Bun.Subprocess<"pipe", "pipe", "pipe">;
  try {
    proc = Bun.spawn(placementArgv(placement, ["placement", "git"]), {
      cwd: context.home,
      env: context.env,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
  } catch (err) {
    return { ok: false, message: `${where(placement)}: ${describeError(err)}` };
  }
  const timer = setTimeout(() => proc.kill("SIGKILL"), timeoutMs + LINK_MS);
  try {
    proc.stdin.write(JSON.stringify(request));
    await proc.stdin.end();
    // JSON escapes a control byte in six: room for a worst case, and a bound all the same.
    const limit = maxStdout * 6 + 256 * 1024;
    const [out, err, code] = await Promise.all([
      capped(proc.stdout, limit, () => proc.kill("SIGKILL")),
      firstBytes(proc.stderr, 64 * 1024),
      proc.exited,
    ]);
    if (code !== 0 || out === undefined) {
      // The last line ssh or shard said, past a usage error's "see `shard … --help`".
      const lines = err.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("see `"));
      const said = lines.at(-1)?.trim().slice(0, 300) ?? "";
      const why = out === undefined ? "an answer past its bound" : `exit ${code}`;
      // Exit 2 is a usage error: most likely a shard there from before `placement git`.
      const hint = code === 2 ? `; ${staleHint(placement)}` : "";
      return {
        ok: false,
        message: `${where(placement)}: shard placement git failed (${why}${said ? `: ${said}` : ""})${hint}`,
      };
    }
    try {
      return { ok: true, value: JSON.parse(out) };
    } catch {
      return { ok: false, message: `${where(placement)}: shard placement git answered no JSON` };
    }
  } catch (err) {
    return { ok: false, message: `${where(placement)}: ${describeError(err)}` };
  } finally {
    clearTimeout(timer);
  }
}

/** The text of a stream, or undefined once it passes `maxBytes` (then `stop` runs). */
async function capped(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
  stop: () => void,
): Promise<string | undefined> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for await (const chunk of stream) {
    bytes += chunk.length;
    if (bytes > maxBytes) {
      stop();
      return undefined;
    }
    chunks.push(chunk);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** The beginning of a stream, the rest drained (a full pipe would stall the far side). */
async function firstBytes(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for await (const chunk of stream) {
    if (bytes < maxBytes) chunks.push(chunk.subarray(0, maxBytes - bytes));
    bytes += chunk.length;
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** What to do about a shard on the far side older than this daemon. */
function staleHint(placement: NamedPlacement): string {
  return placement.kind === "ssh"
    ? `if the shard there is older than this daemon: shard placement install ${placement.name}`
    : "if the shard there is older than this daemon: put this version in its image or pod";
}

function where(placement: NamedPlacement): string {
  return `placement "${placement.name}"`;
}
