/**
 * `$SHARD_HOME` (default `~/.shard`, mode 0700) and the paths under it (docs/architecture.md §4).
 */
import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

export function shardHome(env: Record<string, string | undefined> = process.env): string {
  const dir = env.SHARD_HOME ? resolve(env.SHARD_HOME) : join(homedir(), ".shard");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}
