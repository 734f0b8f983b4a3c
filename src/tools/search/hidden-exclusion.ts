/**
 * Leaving the sandbox's hidden paths out of `grep`, `find` and `ls` (docs/sandbox.md §file
 * tools). Both backends walk from a real root without following symlinks, so every path they
 * yield is real and a prefix test against the real hidden paths is exact.
 */
import { relative, sep } from "node:path";
import { isInside } from "../../permissions/paths.ts";

/** True when `path` is one of the `excluded` paths or lies below one. */
export function isExcluded(excluded: readonly string[], path: string): boolean {
  return excluded.some((hidden) => isInside(hidden, path));
}

/**
 * ripgrep flags that keep it out of each excluded path below `root`, so it never opens them.
 * The globs are anchored (`/` first), which rg reads relative to its working directory: rg
 * must run with `root` as its cwd.
 */
export function ripgrepExcludeFlags(root: string, excluded: readonly string[]): string[] {
  return excluded.flatMap((hidden) => ["--glob", `!/${escapeGlob(relative(root, hidden))}`]);
}

/** Each path component taken literally: glob metacharacters (and a leading `!`/`#`) escaped. */
function escapeGlob(relativePath: string): string {
  return relativePath
    .split(sep)
    .map((part) => part.replace(/[\\*?[\]{}!#\s]/g, "\\$&"))
    .join("/");
}

/** Told to the model when a search or listing left hidden paths out, so an empty answer is not misread. */
export const HIDDEN_LEFT_OUT_NOTE =
  "[Paths the sandbox hides (its deny list: secrets, $SHARD_HOME, sandbox.deny) were left out.]";
