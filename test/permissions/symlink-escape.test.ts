/**
 * Issue 7 A.1, end to end through the real gate and the real file tools (real files and
 * symlinks, no mocks): a symlink followed by `..` must not let a tool touch another file than
 * the one the gate judged. Lexically `s/../../x` and physically `s/../../x` are different
 * places when `s` is a link; the gate and the tools now both take the physical one.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PermissionAnswer } from "../../src/contracts/permission-gate.ts";
import type { AnyTool, ToolResult } from "../../src/contracts/tool.ts";
import { createPermissionGate } from "../../src/permissions/gate.ts";
import { createEditTool } from "../../src/tools/edit.ts";
import { createFindTool } from "../../src/tools/find.ts";
import { createGrepTool } from "../../src/tools/grep.ts";
import { createLsTool } from "../../src/tools/ls.ts";
import { createReadTool } from "../../src/tools/read.ts";
import { createWriteTool } from "../../src/tools/write.ts";
import { resultText, toolContext } from "../tools/helpers.ts";
import { check, recordingAsker, tempDir } from "./fixtures.ts";

const LINK_DEPTH = 8; // `ln -s a/b/c/d/e/f/g/h s`, as in the report
const SECRET = "TOP-SECRET-OUTSIDE";

const root = tempDir("spelled");
const home = join(root.path, "home");
// cwd sits LINK_DEPTH - 1 levels below root, so `s/` + LINK_DEPTH × `../` read lexically
// (`s/..` is cwd, then LINK_DEPTH - 1 levels up) lands on root/outside; physically it is
// `a/…/h` and LINK_DEPTH levels up, back in cwd.
const cwd = join(root.path, ...Array.from({ length: LINK_DEPTH - 2 }, (_, i) => `w${i}`), "proj");
const outside = join(root.path, "outside");
const climb = "../".repeat(LINK_DEPTH);
const chain = Array.from({ length: LINK_DEPTH }, (_, i) => String.fromCharCode(97 + i)).join("/");

beforeAll(() => {
  mkdirSync(join(cwd, chain), { recursive: true });
  mkdirSync(outside, { recursive: true });
  mkdirSync(home);
  writeFileSync(join(outside, "secret.txt"), `${SECRET}\n`);
  writeFileSync(join(cwd, "inside.txt"), "inside\n");
  symlinkSync(chain, join(cwd, "s")); // a real chain of directories
  symlinkSync(chain.replaceAll("/", "-x/"), join(cwd, "dangling")); // a cloned repo can ship this
});
afterAll(() => root.cleanup());

const allowOnce: PermissionAnswer = { kind: "choice", choice_id: "allow_once" };
const deny: PermissionAnswer = { kind: "choice", choice_id: "deny" };

/** What the runtime does: the gate decides, then the tool runs with the paths the gate judged. */
async function gateThenRun(tool: AnyTool, args: Record<string, unknown>, ...answers: PermissionAnswer[]) {
  const asker = recordingAsker(...answers);
  const gate = createPermissionGate({ home, cwd });
  const decision = await gate.decide(check(tool, args, cwd), asker);
  let result: ToolResult | undefined;
  if (decision.allowed) {
    const judged = decision.judgedPaths ? { judgedPaths: decision.judgedPaths } : {};
    result = await tool.execute(args, toolContext(cwd, judged));
  }
  return { decision, asks: asker.asks, result, text: result ? resultText(result) : "" };
}

describe("symlink + `..` cannot reach outside cwd without a prompt (negative)", () => {
  for (const link of ["s", "dangling"]) {
    const spelled = `${link}/${climb}outside/secret.txt`;

    test(`read ${link}/../… is not auto-allowed: it asks, showing the real path`, async () => {
      const run = await gateThenRun(createReadTool(), { path: spelled });
      expect(run.decision.allowed).toBe(false);
      expect(run.asks).toHaveLength(1);
      const real = join(cwd, "outside", "secret.txt");
      expect(run.asks[0]?.prompt).toBe("Allow read: outside/secret.txt?");
      expect(run.asks[0]?.details).toContainEqual({ label: "Path", value: real, format: "path" });
      expect(run.asks[0]?.details?.find((d) => d.label === "Note")?.value).toContain(
        "a symlink followed by `..`",
      );
    });

    test(`allowed, read ${link}/../… opens what the gate judged (inside cwd), never the outside file`, async () => {
      const run = await gateThenRun(createReadTool(), { path: spelled }, allowOnce);
      expect(run.text).not.toContain(SECRET);
      // Judged inside: the file there is <cwd>/outside/secret.txt, which does not exist.
      expect(run.decision.allowed && run.decision.judgedPaths?.get(spelled)).toBe(
        join(cwd, "outside", "secret.txt"),
      );
      expect(run.result?.is_error).toBe(true);
      expect(run.text).toContain("File not found");
    });

    test(`ls, grep and find through ${link}/../… ask, and never list or search the outside directory`, async () => {
      const dir = `${link}/${climb}outside`;
      const runs = [
        await gateThenRun(createLsTool(), { path: dir }, allowOnce),
        await gateThenRun(
          createGrepTool({ backend: "builtin" }),
          { pattern: "SECRET", path: dir },
          allowOnce,
        ),
        await gateThenRun(createGrepTool({ backend: "rg" }), { pattern: "SECRET", path: dir }, allowOnce),
        await gateThenRun(createFindTool({ backend: "builtin" }), { pattern: "*", path: dir }, allowOnce),
        await gateThenRun(createFindTool({ backend: "rg" }), { pattern: "*", path: dir }, allowOnce),
      ];
      for (const run of runs) {
        expect(run.asks).toHaveLength(1);
        expect(run.asks[0]?.details).toContainEqual({
          label: "Path",
          value: join(cwd, "outside"),
          format: "path",
        });
        expect(run.text).not.toContain(SECRET);
        expect(run.text).not.toContain("secret.txt");
        expect(run.result?.is_error).toBe(true);
      }
    });
  }

  // After the read-only cases: these create <cwd>/outside/secret.txt.
  for (const link of ["s", "dangling"]) {
    const spelled = `${link}/${climb}outside/secret.txt`;

    test(`write ${link}/../… writes where the gate judged, never the outside file`, async () => {
      const run = await gateThenRun(createWriteTool(), { path: spelled, content: "overwritten" }, allowOnce);
      expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe(`${SECRET}\n`);
      expect(run.asks[0]?.details).toContainEqual({
        label: "Path",
        value: join(cwd, "outside", "secret.txt"),
        format: "path",
      });
      expect(run.asks[0]?.details).toContainEqual({
        label: "Outside the working directory",
        value: "no",
        format: "text",
      });
      expect(readFileSync(join(cwd, "outside", "secret.txt"), "utf8")).toBe("overwritten");
    });
  }

  test("a path that really escapes through the link asks, names the real path, and writes exactly there", async () => {
    // One `..` more than the link is deep: physically one level above cwd.
    const spelled = `s/${climb}../outside/new.txt`;
    const real = join(cwd, "..", "outside", "new.txt");
    const run = await gateThenRun(createWriteTool(), { path: spelled, content: "x" }, allowOnce);
    expect(run.asks).toHaveLength(1);
    expect(run.asks[0]?.prompt).toBe(`Allow write outside the working directory: ${real}?`);
    expect(run.asks[0]?.details).toContainEqual({
      label: "Path (outside the working directory)",
      value: real,
      format: "path",
    });
    expect(run.asks[0]?.details).toContainEqual({ label: "Requested as", value: spelled, format: "path" });
    expect(readFileSync(real, "utf8")).toBe("x");
  });

  test("denied, a write through a symlinked parent creates nothing outside", async () => {
    symlinkSync(outside, join(cwd, "out-dir"));
    const real = join(outside, "made", "here.txt");
    const run = await gateThenRun(createWriteTool(), { path: "out-dir/made/here.txt", content: "x" }, deny);
    expect(run.asks[0]?.prompt).toBe(`Allow write outside the working directory: ${real}?`);
    expect(run.decision.allowed).toBe(false);
    expect(existsSync(join(outside, "made"))).toBe(false);
  });

  test("edit through the link edits the judged file only", async () => {
    const run = await gateThenRun(
      createEditTool(),
      { path: `s/${climb}inside.txt`, old_string: "inside", new_string: "edited" },
      allowOnce,
    );
    expect(run.asks[0]?.details).toContainEqual({
      label: "Path",
      value: join(cwd, "inside.txt"),
      format: "path",
    });
    expect(run.result?.is_error).toBe(false);
    expect(readFileSync(join(cwd, "inside.txt"), "utf8")).toBe("edited\n");
  });
});
