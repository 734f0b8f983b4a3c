/**
 * Child process for the TOCTOU tests: swaps a link inside a project between an inside and
 * an outside target as fast as it can, until the stop file appears or the iteration bound
 * is reached. Prints `ready` once the first swap is done.
 *
 *   bun swap-links.ts final <proj> <outside-file> <stop-file> <max-iterations>
 *     <proj>/x flips between `inside.txt` and <outside-file> (atomic rename over it)
 *   bun swap-links.ts file <proj> <outside-file> <stop-file> <max-iterations>
 *     <proj>/x flips between a regular file and a link to <outside-file> (for ripgrep's walk)
 *   bun swap-links.ts dir <proj> <outside-dir> <stop-file> <max-iterations>
 *     <proj>/d flips between a real directory and a link to <outside-dir>
 */
import { existsSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [mode = "", proj = "", outside = "", stopFile = "", maxText = ""] = process.argv.slice(2);
if (!proj || !outside || !stopFile || !maxText) throw new Error("usage: see the header");
const max = Number(maxText);

function pointX(target: string): void {
  const tmp = join(proj, "x.tmp");
  rmSync(tmp, { force: true });
  symlinkSync(target, tmp);
  renameSync(tmp, join(proj, "x"));
}

function fileOrLink(toLink: boolean): void {
  const tmp = join(proj, "x.tmp");
  rmSync(tmp, { force: true });
  if (toLink) symlinkSync(outside, tmp);
  else writeFileSync(tmp, "inside #\n");
  renameSync(tmp, join(proj, "x"));
}

function swapDir(toLink: boolean): void {
  const d = join(proj, "d");
  try {
    if (toLink) {
      renameSync(d, join(proj, "d.real"));
      symlinkSync(outside, d);
    } else {
      unlinkSync(d);
      renameSync(join(proj, "d.real"), d);
    }
  } catch {
    // a half-done swap is one more state to race against
  }
}

for (let i = 0; i < max; i++) {
  const outward = i % 2 === 0;
  if (mode === "final") pointX(outward ? outside : "inside.txt");
  else if (mode === "file") fileOrLink(outward);
  else swapDir(outward);
  if (i === 0) process.stdout.write("ready\n");
  if (i % 64 === 0 && existsSync(stopFile)) break;
}
if (mode === "dir") swapDir(false);
