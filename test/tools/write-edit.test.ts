import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { createEditTool } from "../../src/tools/edit.ts";
import { resolveToolPath } from "../../src/tools/resolve-path.ts";
import { createWriteTool } from "../../src/tools/write.ts";
import { makeTempDir, removeDir, resultText, toolContext, writeTree } from "./helpers.ts";

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => removeDir(dir));

const read = (rel: string) => readFileSync(join(dir, rel), "utf8");

describe("paths", () => {
  test("relative paths join cwd, absolute stay, ~ expands to home", () => {
    const home = realpathSync(homedir());
    expect(resolveToolPath({ cwd: dir }, "a/b.ts")).toBe(join(dir, "a", "b.ts"));
    expect(resolveToolPath({ cwd: dir }, join(dir, "x", "..", "y"))).toBe(join(dir, "y"));
    expect(resolveToolPath({ cwd: dir }, "~/no-such-shard-file.md")).toBe(
      join(home, "no-such-shard-file.md"),
    );
    expect(resolveToolPath({ cwd: dir }, "~")).toBe(home);
  });

  test("the path the gate judged wins over the spelling", () => {
    const judgedPaths = new Map([["a/b.ts", join(dir, "judged.ts")]]);
    expect(resolveToolPath({ cwd: dir, judgedPaths }, "a/b.ts")).toBe(join(dir, "judged.ts"));
  });
});

describe("write", () => {
  test("creates parent directories and reports bytes written", async () => {
    const tool = createWriteTool();
    const result = await tool.execute({ path: "deep/er/new.txt", content: "héllo\n" }, toolContext(dir));
    expect(result.is_error).toBe(false);
    expect(resultText(result)).toBe("Created deep/er/new.txt (7 bytes).");
    expect(read("deep/er/new.txt")).toBe("héllo\n");
    expect(tool.isReadOnly).toBe(false);
  });

  test("overwrites an existing file", async () => {
    writeTree(dir, { "f.txt": "old content" });
    const result = await createWriteTool().execute({ path: "f.txt", content: "new" }, toolContext(dir));
    expect(resultText(result)).toBe("Overwrote f.txt (3 bytes).");
    expect(read("f.txt")).toBe("new");
  });

  test("writing onto a directory is an error", async () => {
    mkdirSync(join(dir, "d"));
    const result = await createWriteTool().execute({ path: "d", content: "x" }, toolContext(dir));
    expect(result.is_error).toBe(true);
    expect(resultText(result)).toContain("is a directory");
  });

  test("start-time render previews the content, truncated for big files", () => {
    const tool = createWriteTool();
    expect(tool.render?.({ path: "a.ts", content: "x = 1" })).toEqual({
      kind: "code",
      path: "a.ts",
      text: "x = 1",
    });
    const big = Array.from({ length: 1000 }, (_, i) => `l${i}`).join("\n");
    const render = tool.render?.({ path: "b.ts", content: big });
    expect(render?.kind === "code" && render.text.endsWith("… (800 more lines)")).toBe(true);
    expect(tool.paths?.({ path: "b.ts", content: "" })).toEqual(["b.ts"]);
  });
});

describe("edit", () => {
  const edit = createEditTool();

  test("replaces a unique snippet and returns diff hunks", async () => {
    writeTree(dir, { "a.ts": "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n" });
    const result = await edit.execute(
      { path: "a.ts", old_string: "four", new_string: "FOUR\n4" },
      toolContext(dir),
    );
    expect(result.is_error).toBe(false);
    expect(read("a.ts")).toBe("one\ntwo\nthree\nFOUR\n4\nfive\nsix\nseven\neight\n");
    expect(resultText(result)).toBe("Edited a.ts: replaced 1 occurrence (+2 -1 lines).");
    expect(result.render).toEqual({
      kind: "diff",
      path: "a.ts",
      hunks: [
        {
          old_start: 1,
          old_lines: 7,
          new_start: 1,
          new_lines: 8,
          lines: [" one", " two", " three", "-four", "+FOUR", "+4", " five", " six", " seven"],
        },
      ],
    });
  });

  test("old_string not found is an error with a hint", async () => {
    writeTree(dir, { "a.ts": "function f() {\n\treturn 1;\n}\n" });
    const missing = await edit.execute(
      { path: "a.ts", old_string: "nothing", new_string: "x" },
      toolContext(dir),
    );
    expect(missing.is_error).toBe(true);
    expect(resultText(missing)).toContain("not found");
    expect(resultText(missing)).toContain("Read the file again");
    // Spaces instead of the file's tab: the hint points at the line that nearly matches.
    const ws = await edit.execute(
      { path: "a.ts", old_string: "  return 1;", new_string: "x" },
      toolContext(dir),
    );
    expect(resultText(ws)).toContain("apart from whitespace starts at line 2");
    expect(read("a.ts")).toBe("function f() {\n\treturn 1;\n}\n");
  });

  test("several matches need more context or replace_all", async () => {
    writeTree(dir, { "a.ts": "x = 1;\nx = 1;\nx = 1;\n" });
    const ambiguous = await edit.execute(
      { path: "a.ts", old_string: "x = 1;", new_string: "y = 2;" },
      toolContext(dir),
    );
    expect(ambiguous.is_error).toBe(true);
    expect(resultText(ambiguous)).toContain("occurs 3 times");
    expect(resultText(ambiguous)).toContain("replace_all");
    expect(read("a.ts")).toBe("x = 1;\nx = 1;\nx = 1;\n");

    const all = await edit.execute(
      { path: "a.ts", old_string: "x = 1;", new_string: "y = 2;", replace_all: true },
      toolContext(dir),
    );
    expect(resultText(all)).toBe("Edited a.ts: replaced 3 occurrences (+3 -3 lines).");
    expect(read("a.ts")).toBe("y = 2;\ny = 2;\ny = 2;\n");
  });

  test("identical strings and empty old_string are errors", async () => {
    writeTree(dir, { "a.ts": "abc" });
    const same = await edit.execute({ path: "a.ts", old_string: "abc", new_string: "abc" }, toolContext(dir));
    expect(same.is_error).toBe(true);
    expect(resultText(same)).toContain("identical");
    const empty = await edit.execute({ path: "a.ts", old_string: "", new_string: "x" }, toolContext(dir));
    expect(empty.is_error).toBe(true);
  });

  test("replacement text is literal ($& is not a pattern)", async () => {
    writeTree(dir, { "a.ts": "price" });
    await edit.execute({ path: "a.ts", old_string: "price", new_string: "$& $1 $$" }, toolContext(dir));
    expect(read("a.ts")).toBe("$& $1 $$");
  });

  test("CRLF line endings and a BOM are preserved", async () => {
    writeTree(dir, { "win.txt": "\uFEFFfirst\r\nsecond\r\nthird\r\n" });
    // The model sends LF text; it still matches the CRLF file.
    const result = await edit.execute(
      { path: "win.txt", old_string: "first\nsecond", new_string: "1st\n2nd\nextra" },
      toolContext(dir),
    );
    expect(result.is_error).toBe(false);
    expect(readFileSync(join(dir, "win.txt"))).toEqual(Buffer.from("\uFEFF1st\r\n2nd\r\nextra\r\nthird\r\n"));
  });

  test("missing file suggests write", async () => {
    const result = await edit.execute(
      { path: "none.ts", old_string: "a", new_string: "b" },
      toolContext(dir),
    );
    expect(result.is_error).toBe(true);
    expect(resultText(result)).toContain("`write`");
  });
});
