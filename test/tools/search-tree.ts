/** The tree grep and find are tested on: ignore files at several levels, dotfiles, binaries. */
import { afterAll, beforeAll, describe } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import type { SearchBackendChoice } from "../../src/tools/search/backend.ts";
import { makeTempDir, removeDir, writeTree } from "./helpers.ts";

/**
 * Whether the rg backend tests are skipped: only where ripgrep is missing outside CI. CI installs
 * ripgrep, so there the rg backend tests must run (and fail loudly if rg is missing).
 */
export const skipRg = Bun.which("rg") === null && process.env.CI !== "true";

/** Appended to the name of a skipped rg suite, so the test report says why it did not run. */
export const RG_SKIPPED = skipRg ? " [skipped: ripgrep (rg) is not on PATH]" : "";

if (skipRg)
  console.warn(
    "note: ripgrep (rg) is not on PATH, so the rg backend tests of grep and find are skipped; CI installs it (apt-get install ripgrep to run them here)",
  );

/** Declares the tests `body` makes once per search backend, as "`tool` (`backend` backend)". */
export function describeEachBackend(tool: string, body: (backend: SearchBackendChoice) => void): void {
  for (const backend of ["rg", "builtin"] as const) {
    const skipped = backend === "rg" && skipRg;
    describe.skipIf(skipped)(`${tool} (${backend} backend)${skipped ? RG_SKIPPED : ""}`, () => body(backend));
  }
}

/** Builds the search tree in a fresh temp dir before the file's tests and removes it after them; returns its (real) path reader. */
export function useSearchTree(): () => string {
  let root: string | undefined;
  beforeAll(() => {
    root = realpathSync(makeTempDir());
    buildSearchTree(root);
  });
  afterAll(() => {
    if (root) removeDir(root);
  });
  return () => {
    if (!root) throw new Error("the search tree exists only inside this file's hooks and tests");
    return root;
  };
}

export function buildSearchTree(root: string): void {
  writeTree(root, {
    ".git/info/exclude": "excluded.txt\n",
    ".git/config": "alpha in git config\n",
    ".gitignore": "*.log\nbuild/\n!keep.log\n",
    "a.ts": "const alpha = 1;\nexport function foo() {}\n// ALPHA upper\n",
    "a-b/x.ts": "alpha dash dir\n",
    "a/y.ts": "alpha in a\n",
    "a/z.js": "alpha js\n",
    ".hidden/h.ts": "alpha hidden\n",
    "build/out.ts": "alpha built\n",
    "node_modules/pkg/index.ts": "alpha dependency\n",
    "debug.log": "alpha log\n",
    "keep.log": "alpha kept log\n",
    "excluded.txt": "alpha excluded\n",
    "sub/.gitignore": "secret.txt\n",
    "sub/secret.txt": "alpha secret\n",
    "sub/deep/secret.txt": "alpha deep secret\n",
    "sub/public.txt": "alpha public\n",
    "sub/ctx.txt": "l1\nl2\nalpha first\nl4\nl5\nl6\nl7\nl8\nalpha second\nl10\n",
    "bin.dat": Uint8Array.from([...Buffer.from("alpha"), 0, 1, 2]),
    "crlf.txt": "alpha crlf\r\nbeta\r\n",
    "regex.txt": "a.b\naxb\n(paren)\n",
  });
  mkdirSync(join(root, "empty-dir"));
  symlinkSync(join(root, "a.ts"), join(root, "link.ts"));
}
