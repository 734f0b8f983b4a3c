/**
 * The one path resolver (docs/architecture.md §6.2, §6.4): the permission gate judges, and the file
 * tools open, the path the kernel would really land on after `~` expansion and symlink
 * resolution, never its spelling. Sharing it is what keeps "what was judged" and "what is
 * opened" the same file.
 */
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, parse, sep } from "node:path";

/** Deeper chains fail at the OS level too (ELOOP), so stopping there is harmless. */
const MAX_SYMLINK_HOPS = 40;

/** `realpathSync(path)`, or `path` as it is when it cannot be resolved (it does not exist). */
export function realPathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

export function expandHome(p: string): string {
  if (p === "~") return homedir();
  if (p.startsWith("~/")) return join(homedir(), p.slice(2));
  return p;
}

/**
 * Absolute, symlink-resolved form of `p` (relative to `cwd`). Components are walked the way
 * the kernel walks them, so `link/../x` goes through the link's target (a lexical normalize
 * would wrongly land elsewhere), a dangling symlink is followed to where a write would
 * create the file, and a missing tail (a new file in a new dir) is appended as spelled. The
 * result contains no symlink at the time of the call (unless a chain is deeper than the OS
 * allows, which then fails to open with ELOOP).
 */
export function resolveRealPath(cwd: string, p: string): string {
  const expanded = expandHome(p);
  return resolvePhysical(isAbsolute(expanded) ? expanded : `${cwd}${sep}${expanded}`);
}

function resolvePhysical(absolute: string): string {
  const root = parse(absolute).root || sep;
  let current = root;
  const pending = splitComponents(absolute);
  let hops = 0;
  let missing = false;
  for (let component = pending.shift(); component !== undefined; component = pending.shift()) {
    if (component === ".") continue;
    if (component === "..") {
      // Re-check existence from here on: `new/../link/x` must still go through `link`.
      current = dirname(current);
      missing = false;
      continue;
    }
    const next = join(current, component);
    if (missing) {
      current = next;
      continue;
    }
    const target = symlinkTarget(next);
    if (target === null) {
      missing = true;
      current = next;
    } else if (target === undefined) {
      current = next;
    } else {
      hops += 1;
      if (hops > MAX_SYMLINK_HOPS) return join(next, ...pending);
      if (isAbsolute(target)) current = parse(target).root || sep;
      pending.unshift(...splitComponents(target));
    }
  }
  return current;
}

function splitComponents(p: string): string[] {
  return p.split(sep === "/" ? /\/+/ : /[\\/]+/).filter((c) => c.length > 0);
}

/** The link target, `undefined` for a non-link that exists, `null` when it does not exist. */
function symlinkTarget(p: string): string | null | undefined {
  try {
    const stat = lstatSync(p);
    return stat.isSymbolicLink() ? readlinkSync(p) : undefined;
  } catch {
    return null;
  }
}
