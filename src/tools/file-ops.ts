/**
 * The filesystem calls the file tools make, behind one small interface so a tool can be pointed
 * at another filesystem (a sandbox, a remote host) without touching its logic. Paths given to
 * these calls are real paths (see `resolve-path.ts`); the node implementation never follows a
 * symlink that appeared in one since (see `verified-open.ts`).
 */
import { lstatSync } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { errorCode } from "../support/error-code.ts";
import {
  openForRead,
  PathChangedError,
  readDirVerified,
  readSmallFileVerified,
  writeFileVerified,
} from "./verified-open.ts";

/** Files up to this size are read without leaving the event loop's thread (~0.1 ms from cache). */
const SYNC_READ_MAX_BYTES = 256 * 1024;

export type EntryKind = "file" | "dir" | "other";

export interface FileInfo {
  kind: EntryKind;
  size: number;
}

export interface DirEntry {
  name: string;
  /** Kind after following symlinks (a symlink to a directory is a "dir"). */
  kind: EntryKind;
}

export interface FileOps {
  /** `null` when nothing exists at the path; other failures throw. */
  stat(path: string): Promise<FileInfo | null>;
  /** Reads a regular file; anything else (a FIFO, a device) throws. */
  readFile(path: string): Promise<Uint8Array>;
  /** Writes the file, creating missing parent directories. */
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  readDir(path: string): Promise<DirEntry[]>;
}

function kindOf(s: { isFile(): boolean; isDirectory(): boolean }): EntryKind {
  if (s.isFile()) return "file";
  if (s.isDirectory()) return "dir";
  return "other";
}

export const nodeFileOps: FileOps = {
  // A stat, and a small file's read, run on the calling thread: a trip through the I/O thread
  // pool costs more than either (and far more on a loaded machine).
  async stat(path) {
    try {
      const s = lstatSync(path);
      // A real path has no link in it; one at the end now was swapped in after resolution.
      if (s.isSymbolicLink()) throw new PathChangedError(path);
      return { kind: kindOf(s), size: s.size };
    } catch (error) {
      const code = errorCode(error);
      if (code === "ENOENT" || code === "ENOTDIR") return null;
      throw error;
    }
  },
  async readFile(path) {
    const small = readSmallFileVerified(path, SYNC_READ_MAX_BYTES);
    if (small !== undefined) return small;
    const file = await openForRead(path);
    try {
      if (!(await file.stat()).isFile()) throw new Error("it is not a regular file");
      return await file.readFile();
    } finally {
      await file.close();
    }
  },
  writeFile: writeFileVerified,
  async readDir(path) {
    const entries = await readDirVerified(path);
    return Promise.all(
      entries.map(async (entry): Promise<DirEntry> => {
        if (!entry.isSymbolicLink()) return { name: entry.name, kind: kindOf(entry) };
        try {
          return { name: entry.name, kind: kindOf(await stat(join(path, entry.name))) };
        } catch {
          return { name: entry.name, kind: "other" }; // dangling link
        }
      }),
    );
  },
};
