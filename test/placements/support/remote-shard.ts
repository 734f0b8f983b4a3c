/**
 * The far side of a placement in tests: a second SHARD_HOME (its own models.json pointing at the
 * mock LLM, its own sessions) and a `shard` launcher script that runs this checkout under bun,
 * the way the compiled binary would run on another machine. Stands in for a `shard` binary
 * placed with `shard placement install`, which needs a compiled build.
 */
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { shellWord } from "../../../src/placements/shell-word.ts";
import { mockHome, SHARD_MAIN, tempDir } from "../../agent/support/agent-process.ts";

export interface RemoteShard {
  /** The remote side's SHARD_HOME. */
  home: string;
  /** An executable that runs `shard` (this checkout) with that home. */
  shard: string;
  /** A cwd for agents there. */
  cwd: string;
}

export function remoteShard(llmUrl: string): RemoteShard {
  const home = mockHome(llmUrl);
  const bin = tempDir("remote-bin");
  const shard = join(bin, "shard");
  // Like a login on another machine: only this home, the PATH and the test's sandbox policy.
  writeFileSync(
    shard,
    [
      "#!/bin/sh",
      `export SHARD_HOME=${shellWord(home)} HOME=${shellWord(home)} SHARD_SANDBOX_POLICY=ask SHARD_RETRY_BASE_MS=5`,
      `exec ${shellWord(process.execPath)} ${shellWord(SHARD_MAIN)} "$@"`,
      "",
    ].join("\n"),
  );
  chmodSync(shard, 0o755);
  return { home, shard, cwd: tempDir("remote-cwd") };
}

/**
 * A stand-in for `kubectl exec -i <pod> --` / `podman exec -i <container>`: takes `-i NAME --`
 * and runs the rest with stdio passed through, as an exec into a container does.
 */
export function execScript(): string {
  const path = join(tempDir("exec"), "fake-exec");
  writeFileSync(
    path,
    [
      "#!/bin/sh",
      '[ "$1" = "-i" ] || { echo "fake-exec: -i is required" >&2; exit 2; }',
      'shift; name="$1"; shift',
      '[ "$1" = "--" ] || { echo "fake-exec: expected -- after the name" >&2; exit 2; }',
      "shift",
      'cd / && exec "$@"',
      "",
    ].join("\n"),
  );
  chmodSync(path, 0o755);
  return path;
}

export function writePlacements(home: string, placements: Record<string, unknown>): void {
  writeFileSync(join(home, "placements.json"), JSON.stringify({ placements }, null, 2));
}
