/**
 * Inside-or-outside for permission decisions (ARCHITECTURE §4.3). Paths are resolved by the
 * resolver the file tools use too (`support/real-path.ts`), so the gate judges the very
 * file a tool opens.
 */
import { realpathSync } from "node:fs";
import { resolve, sep } from "node:path";

/** True iff `resolved` is `cwd` itself or below it; `/proj-evil` is not inside `/proj`. */
export function isInside(cwd: string, resolved: string): boolean {
  if (resolved === cwd) return true;
  const prefix = cwd.endsWith(sep) ? cwd : cwd + sep;
  return resolved.startsWith(prefix);
}

/** The cwd in the form resolved paths are compared against (callers may pass an unresolved one). */
export function canonicalCwd(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return resolve(cwd);
  }
}
