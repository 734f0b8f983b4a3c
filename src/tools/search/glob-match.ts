/**
 * Glob filter shared by `find` and the built-in `grep` backend, with ripgrep's `--glob` reading:
 * a pattern without `/` matches a file's name at any depth (`*.ts`), a pattern with `/` matches
 * the path relative to the search root (`src/**\/*.ts`). Braces work (`*.{ts,tsx}`).
 */
import { basename } from "node:path";

export type GlobMatcher = (relativePath: string) => boolean;

export function createGlobMatcher(pattern: string): GlobMatcher {
  let normalized = pattern.startsWith("./") ? pattern.slice(2) : pattern;
  if (normalized.startsWith("/")) normalized = normalized.slice(1);
  const glob = new Bun.Glob(normalized);
  if (!normalized.includes("/")) return (rel) => glob.match(basename(rel));
  return (rel) => glob.match(rel);
}
