/** The tree grep and find are tested on: ignore files at several levels, dotfiles, binaries. */
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { writeTree } from "./helpers.ts";

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
