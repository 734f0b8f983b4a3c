/** Path handling shared by the file tools: paths resolve against the agent cwd (ARCHITECTURE §4.1). */
import { homedir } from "node:os";
import { isAbsolute, join, relative, resolve, sep } from "node:path";

/** Absolute path for a tool argument: `~` expands to the home directory, relative paths join `cwd`. */
export function resolveToolPath(cwd: string, path: string): string {
  if (path === "~") return homedir();
  if (path.startsWith("~/")) return join(homedir(), path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}

/** How a path is shown to the model: relative to cwd when inside it, absolute otherwise. */
export function displayPath(cwd: string, absolutePath: string): string {
  const rel = relative(cwd, absolutePath);
  if (rel === "") return ".";
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return absolutePath;
  return rel;
}

/** A displayed path for use in a sentence: "." reads as "the working directory". */
export function describeLocation(shown: string): string {
  return shown === "." ? "the working directory" : shown;
}
