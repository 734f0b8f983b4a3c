/** Listing the files under a directory for `find`: `rg --files`, or the built-in walk. */
import type { SearchBackend } from "./backend.ts";
import { RG_COMMON_FLAGS, RG_EXCLUDE_FLAGS, runRipgrep } from "./ripgrep.ts";
import { walkFiles } from "./walk.ts";

/**
 * Calls `visit` with the absolute path of each file under `root`, in path order, honouring
 * ignore files; `visit` returns false to stop. Resolves to an error message when rg fails.
 */
export async function listFiles(
  backend: SearchBackend,
  root: string,
  signal: AbortSignal,
  visit: (path: string) => boolean,
): Promise<string | null> {
  if (backend.kind === "builtin") {
    for await (const path of walkFiles(root, signal)) if (!visit(path)) break;
    return null;
  }
  try {
    const args = ["--files", ...RG_COMMON_FLAGS, ...RG_EXCLUDE_FLAGS, "--", root];
    const run = await runRipgrep(backend.rgPath, args, root, signal, (line) => line === "" || visit(line));
    if (run.exitCode === 2 && !run.stopped) return `find failed: ${run.stderr.trim() || "ripgrep failed"}`;
    return null;
  } catch (error) {
    return `Could not run ripgrep: ${error instanceof Error ? error.message : String(error)}`;
  }
}
