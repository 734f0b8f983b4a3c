/**
 * The orphan sweep of a `container` placement that runs an `image` (docs/placements.md, orphans):
 * each generation is a container labelled `shard.owner=<agent_id>`, and the daemon runs one
 * generation per agent at a time, so before it starts the next one any container still
 * carrying that label is an orphan (its engine client was killed while the runtime kept
 * running, a daemon crash) and is removed: it would otherwise hold the session's lock and
 * write into the same session. Stopped ones that the engine failed to remove (`--rm`) go too.
 */
import type { ContainerPlacement } from "./placement-config.ts";

/** One engine call at most this long: a wedged engine must not stall the start forever. */
const ENGINE_CALL_TIMEOUT_MS = 30_000;

/** A container id as `ps -q` prints it. */
const CONTAINER_ID = /^[0-9a-f]{12,64}$/;

export interface SweepContext {
  cwd: string;
  env: Record<string, string | undefined>;
}

export type SweepOutcome = { ok: true; removed: string[] } | { ok: false; reason: string };

export function ownerLabel(owner: string): string {
  return `shard.owner=${owner}`;
}

export async function sweepOwnedContainers(
  placement: ContainerPlacement,
  owner: string,
  context: SweepContext,
): Promise<SweepOutcome> {
  const listed = await engine(
    [placement.engine, "ps", "-a", "-q", "--no-trunc", "--filter", `label=${ownerLabel(owner)}`],
    context,
  );
  if (!listed.ok) return listed;
  const ids = listed.out
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => CONTAINER_ID.test(line));
  if (ids.length === 0) return { ok: true, removed: [] };
  // Killed at once: the orphan is a runtime nobody reads, so there is nothing to wait for
  // (podman's rm -f would give it its stop timeout first; docker's kills at once).
  const wait = placement.engine === "podman" ? ["-t", "0"] : [];
  const removed = await engine([placement.engine, "rm", "-f", ...wait, "--", ...ids], context);
  if (!removed.ok) return removed;
  return { ok: true, removed: ids };
}

async function engine(
  argv: string[],
  context: SweepContext,
): Promise<{ ok: true; out: string } | { ok: false; reason: string }> {
  let proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  try {
    proc = Bun.spawn(argv, {
      cwd: context.cwd,
      env: context.env,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
  } catch (err) {
    return {
      ok: false,
      reason: `${argv[0]} could not run: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  const timer = setTimeout(() => proc.kill("SIGKILL"), ENGINE_CALL_TIMEOUT_MS);
  try {
    const [code, out, err] = await Promise.all([
      proc.exited,
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
    ]);
    if (code === 0) return { ok: true, out };
    const said = err.trim().split("\n").at(-1)?.slice(0, 300) ?? "";
    return {
      ok: false,
      reason: `${argv.slice(0, 2).join(" ")} exited ${code}${said === "" ? "" : `: ${said}`}`,
    };
  } finally {
    clearTimeout(timer);
  }
}
