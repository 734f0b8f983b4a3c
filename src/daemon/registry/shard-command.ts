/**
 * How the daemon runs `shard agent`: a compiled `shard` binary runs itself; under bun (from
 * the sources, or in tests) the same bun runs src/cli/main.ts.
 */
import { basename, resolve } from "node:path";

export function defaultShardCommand(): string[] {
  const underBun = /^bun(-debug|-profile)?(\.exe)?$/.test(basename(process.execPath));
  return underBun ? [process.execPath, resolve(import.meta.dir, "../../cli/main.ts")] : [process.execPath];
}
