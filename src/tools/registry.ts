/** The built-in tool set, in a stable order, and selection by name (`--tools a,b,c`). */
import type { AnyTool } from "../contracts/tool.ts";
import type { CommandSandbox, HiddenPaths } from "../sandbox/agent-sandbox.ts";
import { createAskTool } from "./ask.ts";
import { createBashTool } from "./bash.ts";
import { createEditTool } from "./edit.ts";
import { createFindTool } from "./find.ts";
import { createGrepTool } from "./grep.ts";
import { createLsTool } from "./ls.ts";
import type { ProcessRegistry } from "./process-registry.ts";
import { createReadTool } from "./read.ts";
import type { SearchBackendChoice } from "./search/backend.ts";
import { createWriteTool } from "./write.ts";

export interface BuiltinToolsOptions {
  /** Backend of `grep` and `find`. Default `auto` (ripgrep when on PATH). */
  grepBackend?: SearchBackendChoice;
  /** Default `bash` timeout when a call gives none. Default 120 s. */
  bashTimeoutMs?: number;
  /** Upper bound on a `bash` call's own timeout. Default 10 min. */
  bashMaxTimeoutMs?: number;
  /** Where `bash` records its running process groups (kill -9 clean-up). */
  processes?: ProcessRegistry;
  /** Confines every `bash` command, and keeps `grep`, `find` and `ls` out of what it hides (docs/sandbox.md). */
  sandbox?: CommandSandbox & HiddenPaths;
}

export function createBuiltinTools(options: BuiltinToolsOptions = {}): AnyTool[] {
  const backend = options.grepBackend ?? "auto";
  const hidden = options.sandbox !== undefined ? { hidden: options.sandbox } : {};
  return [
    createReadTool(),
    createWriteTool(),
    createEditTool(),
    createBashTool({
      ...(options.bashTimeoutMs !== undefined ? { defaultTimeoutMs: options.bashTimeoutMs } : {}),
      ...(options.bashMaxTimeoutMs !== undefined ? { maxTimeoutMs: options.bashMaxTimeoutMs } : {}),
      ...(options.processes !== undefined ? { processes: options.processes } : {}),
      ...(options.sandbox !== undefined ? { sandbox: options.sandbox } : {}),
    }),
    createGrepTool({ backend, ...hidden }),
    createFindTool({ backend, ...hidden }),
    createLsTool(hidden),
    createAskTool(),
  ];
}

export type ToolSelection =
  | { ok: true; tools: AnyTool[] }
  | { ok: false; message: string; unknown: string[] };

/**
 * The tools named in `names`, in the order of `all`; every tool when `names` is undefined.
 * Unknown names are an error listing them and the available names.
 */
export function selectTools(all: readonly AnyTool[], names?: readonly string[]): ToolSelection {
  if (names === undefined) return { ok: true, tools: [...all] };
  const wanted = new Set(names.map((n) => n.trim()).filter((n) => n !== ""));
  const known = new Set(all.map((t) => t.name));
  const unknown = [...wanted].filter((n) => !known.has(n));
  if (unknown.length > 0) {
    return {
      ok: false,
      unknown,
      message: `Unknown tool${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}. Available: ${[...known].join(", ")}.`,
    };
  }
  return { ok: true, tools: all.filter((t) => wanted.has(t.name)) };
}
