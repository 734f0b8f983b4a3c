/** Choosing between ripgrep and the built-in walk for `grep` and `find`. */
import { findRipgrep } from "./ripgrep.ts";

export type SearchBackendChoice = "auto" | "rg" | "builtin";

export type SearchBackend = { kind: "rg"; rgPath: string } | { kind: "builtin" };

/** `auto` prefers ripgrep when it is on PATH; `rg` insists on it (an error message when missing). */
export function pickSearchBackend(choice: SearchBackendChoice): SearchBackend | { error: string } {
  if (choice === "builtin") return { kind: "builtin" };
  const rgPath = findRipgrep();
  if (rgPath !== null) return { kind: "rg", rgPath };
  if (choice === "auto") return { kind: "builtin" };
  return {
    error: "ripgrep (rg) is not installed or not on PATH, and this tool was configured to require it.",
  };
}
