/**
 * Path handling shared by the file tools: paths resolve against the agent cwd
 * (docs/architecture.md §6.2).
 */
import { isAbsolute, relative, sep } from "node:path";
import type { ToolContext } from "../contracts/tool.ts";
import { resolveRealPath } from "../support/real-path.ts";

/**
 * The real path a tool opens for the argument `requested`: the one the permission gate judged
 * when it ran, else the same resolver's answer now (`~` expanded, relative to `cwd`, symlinks
 * and `..` walked as the kernel walks them). Never a lexical normalisation of the spelling,
 * which could land somewhere other than what was judged.
 */
export function resolveToolPath(ctx: Pick<ToolContext, "cwd" | "judgedPaths">, requested: string): string {
  return ctx.judgedPaths?.get(requested) ?? resolveRealPath(ctx.cwd, requested);
}

/** How a path is shown to the model: relative to cwd when inside it, absolute otherwise. */
export function displayPath(cwd: string, absolutePath: string): string {
  const rel = relative(cwd, absolutePath);
  if (rel === "") return ".";
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return absolutePath;
  return rel;
}

/** True iff `absolutePath` is `cwd` or below it (`/proj-evil` is not inside `/proj`). */
export function liesInside(cwd: string, absolutePath: string): boolean {
  const rel = relative(cwd, absolutePath);
  return rel === "" || !(rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

/** A displayed path for use in a sentence: "." reads as "the working directory". */
export function describeLocation(shown: string): string {
  return shown === "." ? "the working directory" : shown;
}
