/**
 * Built-in tree walk (used when ripgrep is unavailable): depth-first, entries sorted by name
 * within each directory (the order of `rg --sort path`), ignore rules respected, symlinks not
 * followed, `.git` and `node_modules` skipped, and so are the paths the sandbox hides. Each
 * directory is opened verified, so one swapped for a symlink while the walk runs is skipped
 * rather than entered.
 */
import type { Dirent } from "node:fs";
import { join } from "node:path";
import { readDirVerified } from "../verified-open.ts";
import { isExcluded } from "./hidden-exclusion.ts";
import { ALWAYS_SKIPPED, IgnoreRules } from "./ignore-rules.ts";

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Absolute paths of the files under `root`, never entering or yielding an `excluded` path.
 * Stops early when `signal` aborts.
 */
export async function* walkFiles(
  root: string,
  signal?: AbortSignal,
  excluded: readonly string[] = [],
): AsyncGenerator<string> {
  yield* walkDir(root, await IgnoreRules.forRoot(root), excluded, signal);
}

async function* walkDir(
  dir: string,
  rules: IgnoreRules,
  excluded: readonly string[],
  signal?: AbortSignal,
): AsyncGenerator<string> {
  if (signal?.aborted) return;
  let entries: Dirent[];
  try {
    entries = await readDirVerified(dir);
  } catch {
    return; // unreadable or changed directory: skipped, as ripgrep skips unreadable ones
  }
  entries.sort(byName);
  for (const entry of entries) {
    if (signal?.aborted) return;
    if (ALWAYS_SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (isExcluded(excluded, path)) continue;
    if (entry.isDirectory()) {
      if (rules.isIgnored(path, true)) continue;
      yield* walkDir(path, await rules.child(path), excluded, signal);
    } else if (entry.isFile()) {
      if (!rules.isIgnored(path, false)) yield path;
    }
  }
}
