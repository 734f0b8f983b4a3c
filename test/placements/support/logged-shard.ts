/**
 * The far side's `shard` behind a wrapper that notes each run's subcommand (what the daemon ran
 * through the placement) and, once armed, kills the daemon -9 right after the far side ran a
 * `git worktree add` for it: the side effect done, its answer never read.
 */
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { shellWord } from "../../../src/placements/shell-word.ts";
import { tempDir } from "../../agent/support/agent-process.ts";

export interface LoggedShard {
  shard: string;
  /** The subcommands run so far (`placement git`, `agent --…`), one a line. */
  runs(): string[];
  /** Kills `daemonPid` -9 after the next `git worktree add` there. */
  armKill(daemonPid: number): void;
}

export function loggedShard(shard: string): LoggedShard {
  const dir = tempDir("logged-shard");
  const log = join(dir, "runs.log");
  const armed = join(dir, "armed");
  const path = join(dir, "shard");
  const [q, real, armedWord] = [shellWord(log), shellWord(shard), shellWord(armed)];
  writeFileSync(
    path,
    [
      "#!/bin/sh",
      `echo "$1 $2" >> ${q}`,
      `if [ "$1 $2" = "placement git" ] && [ -f ${armedWord} ]; then`,
      "  req=$(cat)",
      `  case "$req" in *'"worktree","add"'*)`,
      `    pid=$(cat ${armedWord}); rm -f ${armedWord}`,
      `    printf '%s' "$req" | ${real} "$@"`,
      `    kill -9 "$pid"; exit 1 ;;`,
      "  esac",
      // A pipeline runs in a subshell: its exec replaces that, not this script.
      `  printf '%s' "$req" | ${real} "$@"; exit $?`,
      "fi",
      `exec ${real} "$@"`,
      "",
    ].join("\n"),
  );
  chmodSync(path, 0o755);
  writeFileSync(log, "");
  return {
    shard: path,
    runs: () => readFileSync(log, "utf8").split("\n").filter(Boolean),
    armKill: (daemonPid) => writeFileSync(armed, String(daemonPid)),
  };
}
