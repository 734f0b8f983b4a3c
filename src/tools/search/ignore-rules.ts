/**
 * Ignore rules for the built-in search backend, matching what ripgrep does with
 * `--no-require-git`: `.gitignore`, `.ignore` and `.rgignore` in every directory (later files win),
 * `.git/info/exclude` at a repository root, and the ignore files of parent directories up to the
 * repository root (or the filesystem root outside a repository). Deeper rules override shallower ones.
 */
import { readFile, stat } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import ignore, { type Ignore } from "ignore";

/** Names never searched or listed, whatever the ignore files say. */
export const ALWAYS_SKIPPED = new Set([".git", "node_modules"]);

const IGNORE_FILES = [".gitignore", ".ignore", ".rgignore"];

interface IgnoreLayer {
  base: string;
  rules: Ignore;
}

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return null;
  }
}

async function isRepositoryRoot(dir: string): Promise<boolean> {
  try {
    await stat(join(dir, ".git"));
    return true;
  } catch {
    return false;
  }
}

/** The rules a directory contributes, or null when it has no ignore files. */
async function loadLayer(dir: string): Promise<IgnoreLayer | null> {
  const texts: string[] = [];
  if (await isRepositoryRoot(dir)) {
    const exclude = await readText(join(dir, ".git", "info", "exclude"));
    if (exclude !== null) texts.push(exclude);
  }
  for (const name of IGNORE_FILES) {
    const text = await readText(join(dir, name));
    if (text !== null) texts.push(text);
  }
  if (texts.length === 0) return null;
  const rules = ignore();
  // One add per file: an array element would be taken as a single pattern.
  for (const text of texts) rules.add(text);
  return { base: dir, rules };
}

/** An immutable stack of layers; `child` adds a directory's layer for its subtree. */
export class IgnoreRules {
  private constructor(private readonly layers: readonly IgnoreLayer[]) {}

  /** Rules in force at `root`: those of its ancestors up to the repository root, and its own. */
  static async forRoot(root: string): Promise<IgnoreRules> {
    const dirs: string[] = [];
    for (let dir = root; ; dir = dirname(dir)) {
      dirs.unshift(dir);
      if ((await isRepositoryRoot(dir)) || dirname(dir) === dir) break;
    }
    const layers = await Promise.all(dirs.map(loadLayer));
    return new IgnoreRules(layers.filter((layer): layer is IgnoreLayer => layer !== null));
  }

  async child(dir: string): Promise<IgnoreRules> {
    const layer = await loadLayer(dir);
    return layer === null ? this : new IgnoreRules([...this.layers, layer]);
  }

  isIgnored(path: string, isDir: boolean): boolean {
    let ignored = false;
    for (const layer of this.layers) {
      const rel = relative(layer.base, path);
      if (rel === "" || rel.startsWith(`..${sep}`) || rel === "..") continue;
      const result = layer.rules.test(isDir ? `${rel}/` : rel);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }
}
