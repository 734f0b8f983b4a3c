import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import type { UiAsk } from "../../src/contracts/tool.ts";
import { createAskTool } from "../../src/tools/ask.ts";
import { createLsTool } from "../../src/tools/ls.ts";
import { createBuiltinTools, selectTools } from "../../src/tools/registry.ts";
import { makeTempDir, removeDir, resultText, toolContext, writeTree } from "./helpers.ts";

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => removeDir(dir));

describe("ls", () => {
  test("lists one directory sorted, dirs with /, dotfiles and ignored entries included", async () => {
    writeTree(dir, {
      ".gitignore": "ignored.txt\n",
      "ignored.txt": "",
      "b.txt": "",
      "A.md": "",
      "src/index.ts": "",
      ".config/x": "",
    });
    symlinkSync(join(dir, "src"), join(dir, "link-to-src"));
    const result = await createLsTool().execute({}, toolContext(dir));
    expect(resultText(result)).toBe(".config/\n.gitignore\nA.md\nb.txt\nignored.txt\nlink-to-src/\nsrc/");
    expect(result.render).toMatchObject({
      kind: "path_list",
      paths: expect.arrayContaining([
        { path: "src/", kind: "dir" },
        { path: "b.txt", kind: "file" },
      ]),
    });
  });

  test("limit cuts the list with a hint", async () => {
    writeTree(
      dir,
      Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${String(i).padStart(2, "0")}`, ""])),
    );
    const text = resultText(await createLsTool().execute({ limit: 3 }, toolContext(dir)));
    expect(text).toBe(
      "f00\nf01\nf02\n\n[Showing 3 of 12 entries. Raise limit, or use `find` with a pattern to narrow down.]",
    );
  });

  test("empty, missing and file paths", async () => {
    mkdirSync(join(dir, "empty"));
    writeTree(dir, { "f.txt": "x" });
    const ls = createLsTool();
    expect(resultText(await ls.execute({ path: "empty" }, toolContext(dir)))).toBe("(empty directory)");
    const missing = await ls.execute({ path: "missing" }, toolContext(dir));
    expect(missing.is_error).toBe(true);
    const file = await ls.execute({ path: "f.txt" }, toolContext(dir));
    expect(file.is_error).toBe(true);
    expect(resultText(file)).toContain("`read`");
    expect(ls.isReadOnly).toBe(true);
    expect(ls.paths?.({})).toEqual(["."]);
  });
});

describe("ask", () => {
  test("with options it asks a select and returns the choice", async () => {
    const asked: UiAsk[] = [];
    const result = await createAskTool().execute(
      { question: "Which database?", options: ["postgres", "sqlite"] },
      toolContext(dir, {
        askUser: async (ask) => {
          asked.push(ask);
          return "sqlite";
        },
      }),
    );
    expect(asked).toEqual([{ kind: "select", title: "Which database?", options: ["postgres", "sqlite"] }]);
    expect(result).toEqual({ content: { kind: "text", text: "sqlite" }, is_error: false });
  });

  test("without options it asks for input", async () => {
    const asked: UiAsk[] = [];
    const result = await createAskTool().execute(
      { question: "Project name?" },
      toolContext(dir, {
        askUser: async (ask) => {
          asked.push(ask);
          return "shard";
        },
      }),
    );
    expect(asked[0]?.kind).toBe("input");
    expect(resultText(result)).toBe("shard");
  });

  test("a dismissed question is an answer, not an error", async () => {
    const result = await createAskTool().execute(
      { question: "Proceed?" },
      toolContext(dir, { askUser: async () => null }),
    );
    expect(result.is_error).toBe(false);
    expect(resultText(result)).toContain("dismissed");
  });

  test("a failing UI channel becomes an error result", async () => {
    const result = await createAskTool().execute(
      { question: "Proceed?" },
      toolContext(dir, { askUser: () => Promise.reject(new Error("no client attached")) }),
    );
    expect(result.is_error).toBe(true);
    expect(resultText(result)).toContain("no client attached");
  });
});

describe("registry", () => {
  test("built-in tools come in a stable order with the documented read-only flags", () => {
    const tools = createBuiltinTools();
    expect(tools.map((t) => t.name)).toEqual(["read", "write", "edit", "bash", "grep", "find", "ls", "ask"]);
    expect(tools.filter((t) => t.isReadOnly).map((t) => t.name)).toEqual([
      "read",
      "grep",
      "find",
      "ls",
      "ask",
    ]);
    for (const tool of tools) {
      expect(tool.parameters.type).toBe("object");
      expect(tool.description.length).toBeGreaterThan(20);
    }
  });

  test("bashTimeoutMs sets the default bash timeout", async () => {
    const bash = createBuiltinTools({ bashTimeoutMs: 500 }).find((t) => t.name === "bash");
    if (bash === undefined) throw new Error("bash tool missing");
    expect(bash.description).toContain("Default timeout 0.5 s");
    const result = await bash.execute({ command: "sleep 30" }, toolContext(dir));
    expect(result.is_error).toBe(true);
    expect(resultText(result)).toContain("timed out");
  });

  test("selectTools picks a subset in registry order or names the unknown ones", () => {
    const all = createBuiltinTools();
    const picked = selectTools(all, ["ls", "read"]);
    expect(picked.ok && picked.tools.map((t) => t.name)).toEqual(["read", "ls"]);
    const everything = selectTools(all);
    expect(everything.ok && everything.tools.length).toBe(8);
    const bad = selectTools(all, ["read", "shell", "web"]);
    expect(bad).toMatchObject({ ok: false, unknown: ["shell", "web"] });
    expect(!bad.ok && bad.message).toContain("Unknown tools: shell, web. Available: read, write");
  });
});
