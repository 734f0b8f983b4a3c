import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createReadTool } from "../../src/tools/read.ts";
import { makeTempDir, removeDir, resultText, toolContext, writeTree } from "./helpers.ts";

const PNG_1x1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => removeDir(dir));

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");

describe("read", () => {
  test("returns the raw text of a small file, with a code render", async () => {
    writeTree(dir, { "src/a.ts": "const a = 1;\nconst b = 2;\n" });
    const result = await createReadTool().execute({ path: "src/a.ts" }, toolContext(dir));
    expect(result.is_error).toBe(false);
    expect(result.content).toEqual({ kind: "text", text: "const a = 1;\nconst b = 2;" });
    expect(result.render).toEqual({ kind: "code", path: "src/a.ts", text: "const a = 1;\nconst b = 2;" });
  });

  test("offset and limit select lines, with a hint to continue", async () => {
    writeTree(dir, { "f.txt": numbered(10) });
    const result = await createReadTool().execute({ path: "f.txt", offset: 3, limit: 2 }, toolContext(dir));
    expect(resultText(result)).toBe("line 3\nline 4\n\n[Showing lines 3-4 of 10. Use offset=5 to continue.]");
    const last = await createReadTool().execute({ path: "f.txt", offset: 9 }, toolContext(dir));
    expect(resultText(last)).toBe("line 9\nline 10");
  });

  test("long files stop at 2000 lines and say where to continue", async () => {
    writeTree(dir, { "big.txt": numbered(9000) });
    const result = await createReadTool().execute({ path: "big.txt" }, toolContext(dir));
    const text = resultText(result);
    expect(text.split("\n")[1999]).toBe("line 2000");
    expect(text).not.toContain("line 2001\n");
    expect(text.endsWith("[Showing lines 1-2000 of 9000. Use offset=2001 to continue.]")).toBe(true);
    const next = await createReadTool().execute({ path: "big.txt", offset: 2001 }, toolContext(dir));
    expect(resultText(next).startsWith("line 2001\n")).toBe(true);
  });

  test("the byte limit cuts on a line boundary and names itself", async () => {
    const line = "x".repeat(99);
    writeTree(dir, { "wide.txt": Array.from({ length: 1000 }, () => line).join("\n") });
    const result = await createReadTool().execute({ path: "wide.txt" }, toolContext(dir));
    const text = resultText(result);
    // 100 bytes per line with its newline: 512 lines fit in 50 KB.
    expect(text).toContain("[Showing lines 1-512 of 1000 (50 KB limit). Use offset=513 to continue.]");
    expect(Buffer.byteLength(text.split("\n\n[")[0] ?? "")).toBeLessThanOrEqual(50 * 1024);
  });

  test("very long lines are cut with a marker", async () => {
    writeTree(dir, { "min.js": `${"a".repeat(5000)}\nshort` });
    const text = resultText(await createReadTool().execute({ path: "min.js" }, toolContext(dir)));
    expect(text).toBe(`${"a".repeat(2000)}… [line truncated, 3000 more chars]\nshort`);
  });

  test("line numbers can be turned on", async () => {
    writeTree(dir, { "f.txt": "a\nb" });
    const tool = createReadTool({ lineNumbers: true });
    expect(resultText(await tool.execute({ path: "f.txt", offset: 2 }, toolContext(dir)))).toBe("     2\tb");
  });

  test("CRLF files read as plain lines; empty files say so", async () => {
    writeTree(dir, { "win.txt": "one\r\ntwo\r\n", "empty.txt": "" });
    expect(resultText(await createReadTool().execute({ path: "win.txt" }, toolContext(dir)))).toBe(
      "one\ntwo",
    );
    expect(resultText(await createReadTool().execute({ path: "empty.txt" }, toolContext(dir)))).toBe(
      "(empty file)",
    );
  });

  test("an offset past the end is an error that gives the line count", async () => {
    writeTree(dir, { "f.txt": numbered(3) });
    const result = await createReadTool().execute({ path: "f.txt", offset: 10 }, toolContext(dir));
    expect(result.is_error).toBe(true);
    expect(resultText(result)).toContain("has 3 lines");
  });

  test("images are detected by magic bytes, not extension", async () => {
    writeTree(dir, { "pic.dat": PNG_1x1 });
    const result = await createReadTool().execute({ path: "pic.dat" }, toolContext(dir));
    expect(result.is_error).toBe(false);
    expect(result.images).toEqual([
      { type: "image", data: PNG_1x1.toString("base64"), mime_type: "image/png" },
    ]);
    expect(resultText(result)).toContain("image/png");
  });

  test.each([
    ["jpeg", [0xff, 0xd8, 0xff, 0xe0, 0, 0x10], "image/jpeg"],
    ["gif", [...Buffer.from("GIF89a"), 1, 0, 1, 0], "image/gif"],
    ["webp", [...Buffer.from("RIFF"), 0x24, 0, 0, 0, ...Buffer.from("WEBPVP8 ")], "image/webp"],
  ])("%s images get their mime type", async (_name, bytes, mime) => {
    writeTree(dir, { img: Uint8Array.from(bytes) });
    const result = await createReadTool().execute({ path: "img" }, toolContext(dir));
    expect(result.images?.[0]?.mime_type).toBe(mime);
  });

  test("binary files that are not images are refused", async () => {
    writeTree(dir, { "a.out": Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2]) });
    const result = await createReadTool().execute({ path: "a.out" }, toolContext(dir));
    expect(result.is_error).toBe(true);
    expect(result.content.kind).toBe("error");
    expect(resultText(result)).toContain("binary file");
  });

  test("directories are refused with a pointer to ls", async () => {
    mkdirSync(join(dir, "sub"));
    const result = await createReadTool().execute({ path: "sub" }, toolContext(dir));
    expect(result.is_error).toBe(true);
    expect(resultText(result)).toContain("`ls`");
  });

  test("missing files are an error, not a throw", async () => {
    const result = await createReadTool().execute({ path: "nope.txt" }, toolContext(dir));
    expect(result).toMatchObject({ is_error: true, content: { kind: "error" } });
    expect(resultText(result)).toContain("File not found: nope.txt");
  });

  test("absolute paths work and the tool is read-only", async () => {
    writeTree(dir, { "abs.txt": "hi" });
    const tool = createReadTool();
    expect(tool.isReadOnly).toBe(true);
    expect(tool.paths?.({ path: "abs.txt" })).toEqual(["abs.txt"]);
    const result = await tool.execute({ path: join(dir, "abs.txt") }, toolContext("/"));
    expect(resultText(result)).toBe("hi");
  });
});

describe("read from the client (an editor's unsaved buffers)", () => {
  const asking = (asked: string[], text: string | undefined) => (path: string) => {
    asked.push(path);
    return Promise.resolve(text);
  };

  test("a judged text file inside the cwd is asked for; the client's text wins, its silence means the disk", async () => {
    const cwd = realpathSync(dir);
    writeTree(cwd, { "a.txt": "on disk\n" });
    const abs = join(cwd, "a.txt");
    const asked: string[] = [];
    const judged = new Map([["a.txt", abs]]);
    const unsaved = await createReadTool().execute(
      { path: "a.txt" },
      toolContext(cwd, { judgedPaths: judged, readClientFile: asking(asked, "in the editor\n") }),
    );
    expect(resultText(unsaved)).toBe("in the editor");
    const silent = await createReadTool().execute(
      { path: "a.txt" },
      toolContext(cwd, { judgedPaths: judged, readClientFile: asking(asked, undefined) }),
    );
    expect(resultText(silent)).toBe("on disk");
    expect(asked).toEqual([abs, abs]);
  });

  test("a file only the editor has (not saved yet) is read from it", async () => {
    const cwd = realpathSync(dir);
    const abs = join(cwd, "new.txt");
    const result = await createReadTool().execute(
      { path: "new.txt" },
      toolContext(cwd, { judgedPaths: new Map([["new.txt", abs]]), readClientFile: asking([], "fresh\n") }),
    );
    expect(resultText(result)).toBe("fresh");
  });

  test("never asked: without the gate's judgement, outside the cwd, or for an image", async () => {
    const cwd = realpathSync(dir);
    writeTree(cwd, { "a.txt": "on disk\n" });
    writeFileSync(join(cwd, "p.png"), PNG_1x1);
    const asked: string[] = [];
    const readClientFile = asking(asked, "editor text\n");
    const unjudged = await createReadTool().execute({ path: "a.txt" }, toolContext(cwd, { readClientFile }));
    expect(resultText(unjudged)).toBe("on disk");
    const outsideDir = realpathSync(makeTempDir());
    try {
      writeTree(outsideDir, { "o.txt": "outside\n" });
      const outside = join(outsideDir, "o.txt");
      const far = await createReadTool().execute(
        { path: outside },
        toolContext(cwd, { judgedPaths: new Map([[outside, outside]]), readClientFile }),
      );
      expect(resultText(far)).toBe("outside");
    } finally {
      removeDir(outsideDir);
    }
    const image = await createReadTool().execute(
      { path: "p.png" },
      toolContext(cwd, { judgedPaths: new Map([["p.png", join(cwd, "p.png")]]), readClientFile }),
    );
    expect(image.images).toHaveLength(1);
    expect(asked).toEqual([]);
  });
});
