/** Whether a path is (still) below a folder, symlinks resolved: false when either is gone. */
import { realpathSync } from "node:fs";
import { sep } from "node:path";

export function isBelow(path: string, dir: string): boolean {
  try {
    const real = realpathSync(path);
    const root = realpathSync(dir);
    return real.startsWith(root + sep);
  } catch {
    return false;
  }
}
