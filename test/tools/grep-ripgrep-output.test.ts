/**
 * ripgrep's `--json` output is another program's output: each event is checked before it is
 * read. A stand-in `rg` prints one good match among malformed ones; the good match comes through,
 * the others are left out and counted, and the grep tool says so.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { chmodSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { createGrepTool } from "../../src/tools/grep.ts";
import type { GrepQuery } from "../../src/tools/search/grep-query.ts";
import { ripgrepGrep } from "../../src/tools/search/grep-ripgrep.ts";
import { makeTempDir, removeDir, resultText, toolContext, writeTree } from "./helpers.ts";

let dir: string;
let fakeRg: string;
beforeEach(() => {
  dir = realpathSync(makeTempDir());
  writeTree(dir, { "src/a.txt": "one\nalpha two\n" });
  const file = join(dir, "src", "a.txt");
  const match = (data: unknown) => JSON.stringify({ type: "match", data });
  const lines = [
    JSON.stringify({ type: "begin", data: { path: { text: file } } }),
    match({ path: { text: file }, lines: { text: "alpha two\n" }, line_number: 2 }),
    "not json at all",
    match({ lines: { text: "alpha\n" }, line_number: 1 }), // no path
    match({ path: { text: file }, lines: { text: 42 }, line_number: 2 }), // lines not text
    match({ path: { text: file }, lines: { text: "alpha two\n" }, line_number: "2" }),
    "[1, 2]",
    JSON.stringify({ type: "end", data: {} }),
  ];
  fakeRg = join(dir, "bin", "rg");
  writeTree(dir, { "bin/rg": `#!/bin/sh\ncat <<'EOF'\n${lines.join("\n")}\nEOF\n` });
  chmodSync(fakeRg, 0o755);
});
afterEach(() => removeDir(dir));

const query = (): GrepQuery => ({
  pattern: "alpha",
  root: join(dir, "src"),
  rootIsFile: false,
  ignoreCase: false,
  literal: false,
  context: 0,
  limit: 100,
  excluded: [],
});

test("malformed rg events are left out and counted; the good match comes through", async () => {
  const outcome = await ripgrepGrep(fakeRg, query(), dir, new AbortController().signal);
  if (!outcome.ok) throw new Error(outcome.message);
  expect(outcome.records).toEqual([
    { path: join(dir, "src", "a.txt"), line: 2, text: "alpha two", isMatch: true },
  ]);
  expect(outcome.malformed).toBe(5);
});

test("the grep tool notes the lines of rg's output it could not read", async () => {
  const savedPath = process.env.PATH;
  process.env.PATH = join(dir, "bin");
  try {
    const result = await createGrepTool({ backend: "rg" }).execute(
      { pattern: "alpha" },
      toolContext(join(dir, "src")),
    );
    expect(result.is_error).toBe(false);
    const text = resultText(result);
    expect(text).toContain("a.txt:2: alpha two");
    expect(text).toContain("[5 lines of ripgrep's output could not be read and were left out.");
  } finally {
    process.env.PATH = savedPath;
  }
});
