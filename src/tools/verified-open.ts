/**
 * Opening the exact file the permission gate judged (docs/architecture.md §6.2). Every path given
 * here is a real path (no symlink in it when it was judged). A symlink swapped in since then
 * must not redirect the call, so each open refuses to follow a final link (`O_NOFOLLOW`)
 * and then checks where the descriptor really landed: on Linux the kernel's own path of the
 * open file (`/proc/self/fd/N`), elsewhere device and inode against a fresh `lstat`. New
 * files and directories are created through an already-verified parent descriptor on Linux,
 * so nothing is ever created outside through a swapped link.
 */
import {
  closeSync,
  constants,
  type Dirent,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  type Stats,
} from "node:fs";
import { type FileHandle, mkdir, open, readdir } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { errorCode } from "../support/error-code.ts";
import { resolveRealPath } from "../support/real-path.ts";

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const DIRECTORY = constants.O_DIRECTORY ?? 0;
/** A FIFO swapped in must not block the open; regular files ignore the flag. */
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** The path changed between the permission decision and the open: refused, nothing touched. */
export class PathChangedError extends Error {
  constructor(readonly path: string) {
    super(
      `${path} changed while it was being opened (a symlink appeared in it, or it was moved), so it was not ` +
        "touched. Try again; if this keeps happening, something is swapping links in this directory.",
    );
    this.name = "PathChangedError";
  }
}

/** The kernel's path of an open descriptor, or null where `/proc` does not provide it. */
function kernelPath(fd: number): string | null {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

/**
 * Metadata calls here (lstat, fstat, readlink) are synchronous: each takes microseconds, where
 * an awaited one is a round trip through the I/O thread pool.
 */
function landedAt(fd: number, expected: string): boolean {
  const actual = kernelPath(fd);
  if (actual !== null) return actual === expected;
  // No /proc: the same inode must be at the path, and the path must still be link-free.
  const opened = fstatSync(fd);
  const there = lstatOrNull(expected);
  if (there === null || there.isSymbolicLink()) return false;
  if (opened.dev !== there.dev || opened.ino !== there.ino) return false;
  return resolveRealPath("/", expected) === expected;
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/** Opens `path` without following any symlink to another place; PathChangedError otherwise. */
export async function openVerified(path: string, flags: number, mode?: number): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, flags | NOFOLLOW, mode);
  } catch (error) {
    throw explainOpenFailure(path, error);
  }
  if (landedAt(handle.fd, path)) return handle;
  await handle.close();
  throw new PathChangedError(path);
}

/**
 * ELOOP (ENOTDIR with O_DIRECTORY) is how the kernel refuses a final component that is a
 * link; it was not one when judged, so say that rather than pass on a cryptic code.
 */
function explainOpenFailure(path: string, error: unknown): unknown {
  const code = errorCode(error);
  if (code !== "ELOOP" && code !== "ENOTDIR") return error;
  return code === "ELOOP" || lstatOrNull(path)?.isSymbolicLink() ? new PathChangedError(path) : error;
}

/** Opens a file for reading; a FIFO or device swapped in never blocks (callers check the kind). */
export function openForRead(path: string): Promise<FileHandle> {
  return openVerified(path, constants.O_RDONLY | NONBLOCK);
}

/**
 * The content of the regular file `path`, opened and checked as `openVerified` does, read on
 * the calling thread when it is at most `maxBytes` (a small file costs less than one trip
 * through the I/O thread pool); `undefined` when it is larger, for the caller to read it
 * asynchronously. Throws PathChangedError, or for anything but a regular file.
 */
export function readSmallFileVerified(path: string, maxBytes: number): Uint8Array | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NONBLOCK | NOFOLLOW);
  } catch (error) {
    throw explainOpenFailure(path, error);
  }
  try {
    if (!landedAt(fd, path)) throw new PathChangedError(path);
    const info = fstatSync(fd);
    if (!info.isFile()) throw new Error("it is not a regular file");
    return info.size <= maxBytes ? readFileSync(fd) : undefined;
  } finally {
    closeSync(fd);
  }
}

export function openDirectory(path: string): Promise<FileHandle> {
  return openVerified(path, constants.O_RDONLY | DIRECTORY);
}

/** The entries of the verified directory `path` (read through its descriptor where possible). */
export async function readDirVerified(path: string): Promise<Dirent[]> {
  const dir = await openDirectory(path);
  try {
    const viaFd = kernelPath(dir.fd) !== null ? `/proc/self/fd/${dir.fd}` : path;
    return await readdir(viaFd, { withFileTypes: true });
  } finally {
    await dir.close();
  }
}

/**
 * Where to create `name` inside the verified directory `dir`: through its descriptor on Linux
 * (the kernel looks `name` up in that very directory, like `openat`), else by path.
 */
function childOf(dir: FileHandle, dirPath: string, name: string): string {
  return kernelPath(dir.fd) !== null ? `/proc/self/fd/${dir.fd}/${name}` : join(dirPath, name);
}

/** Opens the directory `path`, creating missing ones one level at a time, each verified. */
async function ensureDirectory(path: string): Promise<FileHandle> {
  try {
    return await openDirectory(path);
  } catch (error) {
    if (errorCode(error) !== "ENOENT" || dirname(path) === path) throw error;
  }
  const parent = await ensureDirectory(dirname(path));
  try {
    await mkdir(childOf(parent, dirname(path), basename(path))).catch((error: unknown) => {
      if (errorCode(error) !== "EEXIST") throw error;
    });
  } finally {
    await parent.close();
  }
  return openDirectory(path);
}

/**
 * Replaces the content of the file `path` (creating it and missing parent directories).
 * The file is opened without truncating, checked, and only then truncated and written.
 */
export async function writeFileVerified(path: string, data: string | Uint8Array): Promise<void> {
  const parent = await ensureDirectory(dirname(path));
  let file: FileHandle;
  try {
    const flags = constants.O_WRONLY | constants.O_CREAT | NONBLOCK;
    try {
      file = await open(childOf(parent, dirname(path), basename(path)), flags | NOFOLLOW, 0o666);
    } catch (error) {
      throw explainOpenFailure(path, error);
    }
  } finally {
    await parent.close();
  }
  try {
    if (!landedAt(file.fd, path)) throw new PathChangedError(path);
    if (!(await file.stat()).isFile()) throw new Error("it is not a regular file");
    await file.truncate(0);
    await file.writeFile(data);
  } finally {
    await file.close();
  }
}
