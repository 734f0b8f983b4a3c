/**
 * Durable writes (docs/architecture.md §9.1): temp file + fsync + rename, so readers never see half
 * a file, and a write that fails (a full disk) leaves nothing behind: no temp file, and no folder
 * it had to make (an empty `agents/<id>/` would be reported at every start).
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";

/** Where the bytes go; a test puts a full disk here. */
export interface WriteIo {
  writeSync(fd: number, bytes: Uint8Array, offset: number, length: number): number;
}

const NODE_IO: WriteIo = { writeSync };

export function atomicWriteFileSync(
  path: string,
  data: string | Uint8Array,
  mode = 0o600,
  io: WriteIo = NODE_IO,
): void {
  const dir = dirname(path);
  const made = mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    // O_EXCL | O_NOFOLLOW: never write through a file or symlink planted at the temp name.
    const fd = openSync(
      tmp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      mode,
    );
    try {
      writeAll(io, fd, typeof data === "string" ? Buffer.from(data) : data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    // A failed open, write or rename (the target is a directory, the disk is full) leaves nothing behind.
    rmSync(tmp, { force: true });
    if (made !== undefined) removeMadeDirs(dir, made);
    throw err;
  }
  // fsync the directory so the rename itself survives a crash.
  try {
    const dfd = openSync(dir, "r");
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch {
    // Some filesystems refuse fsync on directories; the rename is still atomic.
  }
}

function writeAll(io: WriteIo, fd: number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) offset += io.writeSync(fd, bytes, offset, bytes.length - offset);
}

/** `dir` up to `made` (the first folder mkdir created): only empty ones, so nobody else's file goes. */
function removeMadeDirs(dir: string, made: string): void {
  for (let d = dir; ; d = dirname(d)) {
    try {
      rmdirSync(d);
    } catch {
      return;
    }
    if (d === made || dirname(d) === d) return;
  }
}
