import { describe, expect, test } from "bun:test";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import type { ToolResult } from "../../src/contracts/tool.ts";
import { createGrepTool, type GrepArgs } from "../../src/tools/grep.ts";
import type { SearchBackendChoice } from "../../src/tools/search/backend.ts";
import { makeTempDir, removeDir, resultText, toolContext, writeTree } from "./helpers.ts";
import { describeEachBackend, RG_SKIPPED, skipRg, useSearchTree } from "./search-tree.ts";

const root = useSearchTree();

const grep = (backend: SearchBackendChoice, args: GrepArgs, cwd = root()): Promise<ToolResult> =>
  createGrepTool({ backend }).execute(args, toolContext(cwd));

describeEachBackend("grep", (backend) => {
  test("finds matches as file:line: text, respecting ignore rules", async () => {
    const result = await grep(backend, { pattern: "alpha" });
    expect(result.is_error).toBe(false);
    expect(resultText(result).split("\n")).toEqual([
      ".hidden/h.ts:1: alpha hidden",
      "a/y.ts:1: alpha in a",
      "a/z.js:1: alpha js",
      "a-b/x.ts:1: alpha dash dir",
      "a.ts:1: const alpha = 1;",
      "crlf.txt:1: alpha crlf",
      "keep.log:1: alpha kept log",
      "sub/ctx.txt:3: alpha first",
      "sub/ctx.txt:9: alpha second",
      "sub/public.txt:1: alpha public",
    ]);
    expect(result.render).toMatchObject({
      kind: "path_list",
      paths: expect.arrayContaining([{ path: "a/y.ts", kind: "file", hint: "1: alpha in a" }]),
    });
  });

  test("ignore_case, literal and glob", async () => {
    const upper = await grep(backend, { pattern: "ALPHA", path: "a.ts", ignore_case: true });
    expect(resultText(upper)).toBe("a.ts:1: const alpha = 1;\na.ts:3: // ALPHA upper");
    const regex = await grep(backend, { pattern: "a.b", path: "regex.txt" });
    expect(resultText(regex)).toBe("regex.txt:1: a.b\nregex.txt:2: axb");
    const literal = await grep(backend, { pattern: "a.b", path: "regex.txt", literal: true });
    expect(resultText(literal)).toBe("regex.txt:1: a.b");
    const parens = await grep(backend, { pattern: "(paren", literal: true });
    expect(resultText(parens)).toBe("regex.txt:3: (paren)");
    const ts = await grep(backend, { pattern: "alpha", glob: "*.ts" });
    expect(resultText(ts).split("\n")).toEqual([
      ".hidden/h.ts:1: alpha hidden",
      "a/y.ts:1: alpha in a",
      "a-b/x.ts:1: alpha dash dir",
      "a.ts:1: const alpha = 1;",
    ]);
    const anchored = await grep(backend, { pattern: "alpha", glob: "a/*.{ts,js}" });
    expect(resultText(anchored)).toBe("a/y.ts:1: alpha in a\na/z.js:1: alpha js");
  });

  test("context lines and block separators", async () => {
    const result = await grep(backend, { pattern: "alpha", path: "sub/ctx.txt", context: 1 });
    expect(resultText(result).split("\n")).toEqual([
      "sub/ctx.txt-2- l2",
      "sub/ctx.txt:3: alpha first",
      "sub/ctx.txt-4- l4",
      "--",
      "sub/ctx.txt-8- l8",
      "sub/ctx.txt:9: alpha second",
      "sub/ctx.txt-10- l10",
    ]);
  });

  test("the match limit stops the search with a hint", async () => {
    const result = await grep(backend, { pattern: "alpha", limit: 3 });
    const text = resultText(result);
    expect(text.split("\n\n")[0]?.split("\n")).toEqual([
      ".hidden/h.ts:1: alpha hidden",
      "a/y.ts:1: alpha in a",
      "a/z.js:1: alpha js",
    ]);
    expect(text).toContain("[Stopped after 3 matches; there are more.");
  });

  test("long lines are capped", async () => {
    const dir = realpathSync(makeTempDir());
    try {
      writeTree(dir, { "min.js": `alpha${"x".repeat(1000)}` });
      const text = resultText(await grep(backend, { pattern: "alpha" }, dir));
      expect(text).toBe(`min.js:1: alpha${"x".repeat(495)}… [line truncated, 505 more chars]`);
    } finally {
      removeDir(dir);
    }
  });

  test("no matches is not an error; bad input is", async () => {
    const none = await grep(backend, { pattern: "zebra" });
    expect(none.is_error).toBe(false);
    expect(resultText(none)).toContain("No matches");
    const bad = await grep(backend, { pattern: "(unclosed" });
    expect(bad.is_error).toBe(true);
    expect(resultText(bad)).toContain("literal");
    const missing = await grep(backend, { pattern: "x", path: "nowhere" });
    expect(missing.is_error).toBe(true);
    expect(resultText(missing)).toContain("Path not found");
  });

  test("paths outside cwd are shown absolute", async () => {
    const result = await grep(backend, { pattern: "public", path: join(root(), "sub") }, join(root(), "a"));
    expect(resultText(result)).toBe(`${join(root(), "sub/public.txt")}:1: alpha public`);
  });

  test("rules from a parent .gitignore apply when searching a subdirectory", async () => {
    const result = await grep(backend, { pattern: "alpha", path: "sub" });
    expect(resultText(result).split("\n")).toEqual([
      "sub/ctx.txt:3: alpha first",
      "sub/ctx.txt:9: alpha second",
      "sub/public.txt:1: alpha public",
    ]);
  });
});

describe.skipIf(skipRg)(`grep backends agree${RG_SKIPPED}`, () => {
  const queries: GrepArgs[] = [
    { pattern: "alpha" },
    { pattern: "alpha", glob: "*.ts" },
    { pattern: "alpha", glob: "**/*.txt" },
    { pattern: "ALPHA", ignore_case: true, context: 2 },
    { pattern: "^l\\d+$", path: "sub" },
    { pattern: "alpha", limit: 5 },
    { pattern: "a.b", literal: true },
    { pattern: "beta$" },
  ];
  for (const query of queries) {
    test(JSON.stringify(query), async () => {
      const [rg, builtin] = await Promise.all([grep("rg", query), grep("builtin", query)]);
      expect(rg.is_error).toBe(false);
      expect(resultText(builtin)).toBe(resultText(rg));
      expect(builtin.render).toEqual(rg.render as NonNullable<ToolResult["render"]>);
    });
  }
});

test("the rg backend is an error, not a silent fallback, when rg is missing", async () => {
  const savedPath = process.env.PATH;
  process.env.PATH = "/nonexistent";
  try {
    const result = await grep("rg", { pattern: "alpha" });
    expect(result.is_error).toBe(true);
    expect(resultText(result)).toContain("ripgrep");
  } finally {
    process.env.PATH = savedPath;
  }
});
