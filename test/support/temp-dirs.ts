/**
 * The temporary folders of a test run. Each is made under the system temp folder and removed
 * once every test file has run (test/support/remove-temp-dirs.ts, preloaded by bunfig.toml), so
 * a run leaves nothing behind — not homes, not repositories, not 118 MB compiled binaries.
 */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made: string[] = [];

/** A new empty folder `<tmp>/<prefix>XXXXXX`, its real path (macOS and symlinked /tmp alike). */
export function makeTempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // A folder a stray process still writes into: the system's temp cleaning gets it later.
    }
  }
}
