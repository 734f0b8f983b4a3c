/**
 * Whether this machine can confine commands with bubblewrap: `bwrap` on PATH and allowed to make
 * the namespaces we need (a kernel or container may refuse unprivileged user namespaces). Probed
 * once per process by running `true` the way every command will run; with a `$SHARD_HOME`, a
 * bubblewrap that worked is remembered for the boot (./probe-cache.ts).
 */
import { describeError } from "../support/describe-error.ts";
import { rememberedWorking, rememberWorking } from "./probe-cache.ts";

export type BubblewrapProbe = { ok: true; path: string } | { ok: false; reason: string };

let cached: BubblewrapProbe | undefined;

export function probeBubblewrap(env: Record<string, string | undefined>, home?: string): BubblewrapProbe {
  cached ??= probe(env, home);
  return cached;
}

function probe(env: Record<string, string | undefined>, home: string | undefined): BubblewrapProbe {
  // A test or a user can name another binary; "none" says "act as if it were missing".
  const named = env.SHARD_BWRAP;
  if (named === "none") return { ok: false, reason: "SHARD_BWRAP=none disables bubblewrap" };
  const path = named ?? Bun.which("bwrap", { PATH: env.PATH ?? "/usr/bin:/bin" });
  if (!path)
    return {
      ok: false,
      reason: "bubblewrap (bwrap) is not installed; on Debian or Ubuntu: apt install bubblewrap",
    };
  if (home !== undefined && rememberedWorking(home, path)) return { ok: true, path };
  try {
    const run = Bun.spawnSync(
      [
        path,
        "--ro-bind",
        "/",
        "/",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--unshare-all",
        "--die-with-parent",
        "--",
        "true",
      ],
      { stdin: "ignore", stdout: "ignore", stderr: "pipe", timeout: 5000 },
    );
    if (run.exitCode === 0) {
      if (home !== undefined) rememberWorking(home, path);
      return { ok: true, path };
    }
    const said = run.stderr.toString().trim().split("\n")[0] ?? "";
    return {
      ok: false,
      reason: `bubblewrap at ${path} cannot make a sandbox here: ${said || `exit ${run.exitCode}`}`,
    };
  } catch (error) {
    return { ok: false, reason: `bubblewrap at ${path} could not be run: ${describeError(error)}` };
  }
}
