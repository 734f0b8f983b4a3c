/** Listing the files under a directory for `find`: `rg --files`, or the built-in walk. */
import type { SearchBackend } from "./backend.ts";
import { isExcluded, ripgrepExcludeFlags } from "./hidden-exclusion.ts";
import { RG_COMMON_FLAGS, RG_EXCLUDE_FLAGS, runRipgrep } from "./ripgrep.ts";
import { walkFiles } from "./walk.ts";

/**
 * Calls `visit` with the absolute path of each file under `root`, in path order, honouring
 * ignore files and leaving out the `excluded` paths (hidden by the sandbox); `visit` returns
 * false to stop. Resolves to an error message when rg fails.
 */
export async function listFiles(
  backend: SearchBackend,
  root: string,
  signal: AbortSignal,
  visit: (path: string) => boolean,
  excluded: readonly string[] = [],
): Promise<string | null> {
  if (backend.kind === "builtin") {
    for await (const path of walkFiles(root, signal, excluded)) if (!visit(path)) break;
    return null;
  }
  try {
    const exclude = [...RG_EXCLUDE_FLAGS, ...ripgrepExcludeFlags(root, excluded)];
    const args = ["--files", ...RG_COMMON_FLAGS, ...exclude, "--", root];
    // rg runs in `root`, which anchors the exclusion globs; what it lists is checked again.
    const run = await runRipgrep(backend.rgPath, args, root, signal, (line) =>
      line === "" || isExcluded(excluded, line) ? true : visit(line),
    );
    if (run.exitCode === 2 && !run.stopped) return `find failed: ${run.stderr.trim() || "ripgrep failed"}`;
    return null;
  } catch (error) {
    return `Could not run ripgrep: ${error instanceof Error ? error.message : String(error)}`;
  }
}
