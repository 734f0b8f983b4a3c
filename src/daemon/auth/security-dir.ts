/**
 * `$SHARD_HOME/security/`: a 0700 directory of ours. Created 0700, tightened when wider,
 * refused when it is not a directory (a symlink included) or belongs to another user.
 */
import { chmodSync, lstatSync, mkdirSync } from "node:fs";

export type DirCheck = { ok: true } | { ok: false; message: string };

export function secureSecurityDir(dir: string): DirCheck {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if (!(err instanceof Error && "code" in err && err.code === "EEXIST")) {
      return {
        ok: false,
        message: `cannot create ${dir}: ${err instanceof Error ? err.message : String(err)}`,
      };
    }
  }
  const st = lstatSync(dir);
  if (!st.isDirectory()) {
    return {
      ok: false,
      message: `${dir} is not a directory; remove it so the daemon can create its security store`,
    };
  }
  if (st.uid !== process.getuid?.()) {
    return {
      ok: false,
      message: `${dir} belongs to another user (uid ${st.uid}); use a SHARD_HOME of your own`,
    };
  }
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
  return { ok: true };
}
