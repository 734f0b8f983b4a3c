/**
 * Inside-or-outside for permission decisions (docs/architecture.md §6.4). Paths are resolved by the
 * resolver the file tools use too (`support/real-path.ts`), so the gate judges the very
 * file a tool opens.
 */
import { realpathSync } from "node:fs";
import { resolve, sep } from "node:path";
import { expandHome } from "../support/real-path.ts";

/** True iff `resolved` is `cwd` itself or below it; `/proj-evil` is not inside `/proj`. */
export function isInside(cwd: string, resolved: string): boolean {
  if (resolved === cwd) return true;
  const prefix = cwd.endsWith(sep) ? cwd : cwd + sep;
  return resolved.startsWith(prefix);
}

/**
 * Whether the spelling of `requested`, read lexically, stays in cwd. It differs from where the
 * path really lands only through a symlink followed by `..` (`s/../../x`): such a path is
 * never auto-allowed, because what it looks like and what it is disagree.
 */
export function spelledInside(cwd: string, requested: string): boolean {
  return isInside(cwd, resolve(cwd, expandHome(requested)));
}

/** The cwd in the form resolved paths are compared against (callers may pass an unresolved one). */
export function canonicalCwd(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return resolve(cwd);
  }
}
