/**
 * A branch diff cut at MAX_DIFF_BYTES ends inside a hunk; the patch parser refuses that
 * outright, so the cut is taken back to the last whole file and the review says "truncated"
 * instead of failing with INTERNAL_ERROR.
 */
import { expect, test } from "bun:test";
import { parsePatch } from "diff";
import { wholeFiles } from "../../../src/git/tree-diff.ts";

const fileDiff = (name: string, lines: number) =>
  [
    `diff --git a/${name} b/${name}`,
    "index 1111111..2222222 100644",
    `--- a/${name}`,
    `+++ b/${name}`,
    `@@ -1,0 +1,${lines} @@`,
    ...Array.from({ length: lines }, (_, i) => `+line ${i}`),
  ].join("\n");

test("a diff cut inside its last hunk parses as the files before it", () => {
  const whole = `${fileDiff("a.txt", 3)}\n${fileDiff("b.txt", 40)}\n`;
  const cut = whole.slice(0, whole.length - 100);
  expect(() => parsePatch(cut)).toThrow();
  const patches = parsePatch(wholeFiles(cut));
  expect(patches.map((p) => p.newFileName)).toEqual(["b/a.txt"]);
  expect(patches[0]?.hunks[0]?.lines).toHaveLength(3);
  // Cut inside the first file: nothing whole is left, and nothing is made up.
  expect(wholeFiles(whole.slice(0, 60))).toBe("");
});
