/**
 * How the daemon runs `shard agent`: the compiled binary runs itself; from source, the
 * current bun runs src/cli/main.ts.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";

export function defaultShardCommand(): string[] {
  const main = resolve(import.meta.dir, "../../cli/main.ts");
  return existsSync(main) ? [process.execPath, main] : [process.execPath];
}
