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

/**
 * Hands the folders to a detached `rm -rf` and returns at once: a run's folders hold installed
 * packages, repositories and binaries, and deleting them under load took minutes, long enough for
 * the last hook to time out although every test had passed.
 */
export function removeTempDirs(): void {
  const dirs = made.splice(0);
  if (dirs.length === 0) return;
  try {
    const rm = Bun.spawn(["rm", "-rf", "--", ...dirs], {
      stdio: ["ignore", "ignore", "ignore"],
      detached: true,
    });
    rm.unref();
  } catch {
    // No `rm`: delete here, whatever it costs.
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
