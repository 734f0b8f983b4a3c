import { describe, expect, test } from "bun:test";
import type { ToolResult } from "../../src/contracts/tool.ts";
import { createFindTool, type FindArgs } from "../../src/tools/find.ts";
import type { SearchBackendChoice } from "../../src/tools/search/backend.ts";
import { resultText, toolContext } from "./helpers.ts";
import { describeEachBackend, RG_SKIPPED, skipRg, useSearchTree } from "./search-tree.ts";

const root = useSearchTree();

const find = (backend: SearchBackendChoice, args: FindArgs, cwd = root()): Promise<ToolResult> =>
  createFindTool({ backend }).execute(args, toolContext(cwd));

describeEachBackend("find", (backend) => {
  test("a name glob matches at any depth, honouring ignore files", async () => {
    const result = await find(backend, { pattern: "*.ts" });
    expect(result.is_error).toBe(false);
    expect(resultText(result).split("\n")).toEqual([".hidden/h.ts", "a/y.ts", "a-b/x.ts", "a.ts"]);
    expect(result.render).toEqual({
      kind: "path_list",
      paths: [".hidden/h.ts", "a/y.ts", "a-b/x.ts", "a.ts"].map((path) => ({ path, kind: "file" })),
    });
  });

  test("ignored, excluded, nested-ignored and skipped directories are left out", async () => {
    const text = resultText(await find(backend, { pattern: "*" }));
    const files = text.split("\n");
    expect(files).toContain("keep.log");
    expect(files).toContain("sub/public.txt");
    expect(files).toContain("sub/.gitignore");
    for (const hidden of [
      "debug.log",
      "build/out.ts",
      "excluded.txt",
      "sub/secret.txt",
      "sub/deep/secret.txt",
      "node_modules/pkg/index.ts",
      ".git/config",
      "link.ts",
    ]) {
      expect(files).not.toContain(hidden);
    }
  });

  test("a glob with / matches the path relative to the search path", async () => {
    expect(resultText(await find(backend, { pattern: "a/*.{ts,js}" }))).toBe("a/y.ts\na/z.js");
    expect(resultText(await find(backend, { pattern: "*.txt", path: "sub" }))).toBe(
      "sub/ctx.txt\nsub/public.txt",
    );
    expect(resultText(await find(backend, { pattern: "**/*.txt", path: "sub" }))).toBe(
      "sub/ctx.txt\nsub/public.txt",
    );
  });

  test("the limit stops the listing with a hint", async () => {
    const text = resultText(await find(backend, { pattern: "*", limit: 2 }));
    expect(text).toBe(
      ".gitignore\n.hidden/h.ts\n\n[Showing the first 2 files; more match. Use a more specific pattern or path, or raise limit.]",
    );
  });

  test("no match is not an error; a missing or file path is", async () => {
    const none = await find(backend, { pattern: "*.rs" });
    expect(none.is_error).toBe(false);
    expect(resultText(none)).toBe("No files matching *.rs in the working directory.");
    expect((await find(backend, { pattern: "*", path: "nowhere" })).is_error).toBe(true);
    const file = await find(backend, { pattern: "*", path: "a.ts" });
    expect(file.is_error).toBe(true);
    expect(resultText(file)).toContain("not a directory");
  });
});

describe.skipIf(skipRg)(`find backends agree${RG_SKIPPED}`, () => {
  const queries: FindArgs[] = [
    { pattern: "*" },
    { pattern: "*.txt" },
    { pattern: "sub/**" },
    { pattern: "*", path: "a" },
  ];
  for (const query of queries) {
    test(JSON.stringify(query), async () => {
      const [rg, builtin] = await Promise.all([find("rg", query), find("builtin", query)]);
      expect(rg.is_error).toBe(false);
      expect(resultText(builtin)).toBe(resultText(rg));
    });
  }
});
