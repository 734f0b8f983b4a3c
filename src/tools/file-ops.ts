/**
 * The filesystem calls the file tools make, behind one small interface so a tool can be pointed
 * at another filesystem (a sandbox, a remote host) without touching its logic.
 */
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

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
  async stat(path) {
    try {
      const s = await stat(path);
      return { kind: kindOf(s), size: s.size };
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "ENOENT" || code === "ENOTDIR") return null;
      throw error;
    }
  },
  readFile: (path) => readFile(path),
  async writeFile(path, data) {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, data);
  },
  async readDir(path) {
    const entries = await readdir(path, { withFileTypes: true });
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
