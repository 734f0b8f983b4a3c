/**
 * Issue 7 A.2: a symlink swapped between the permission check and the open. A child process
 * flips a link between an inside and an outside target while calls go through the real gate
 * and the real tools. Whatever the interleaving, no call may read (or change) the outside
 * file unless the user was asked about exactly that file; a swap gives an error instead.
 * Plus the deterministic halves: a link that appears after the decision is refused at open.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PermissionAnswer, PermissionAsk } from "../../src/contracts/permission-gate.ts";
import type { AnyTool } from "../../src/contracts/tool.ts";
import { createPermissionGate } from "../../src/permissions/gate.ts";
import { resolveRealPath } from "../../src/support/real-path.ts";
import { createEditTool } from "../../src/tools/edit.ts";
import { nodeFileOps } from "../../src/tools/file-ops.ts";
import { createGrepTool } from "../../src/tools/grep.ts";
import { createLsTool } from "../../src/tools/ls.ts";
import { createReadTool } from "../../src/tools/read.ts";
import type { GrepRecord } from "../../src/tools/search/grep-query.ts";
import { keepVerifiedRecords } from "../../src/tools/search/grep-verify.ts";
import { PathChangedError } from "../../src/tools/verified-open.ts";
import { createWriteTool } from "../../src/tools/write.ts";
import { check, tempDir } from "../permissions/fixtures.ts";
import { resultText, toolContext } from "./helpers.ts";

const SECRET = "OUTSIDE-SECRET #";
const ROUNDS = 150;
const SWAPPER = join(import.meta.dir, "support", "swap-links.ts");

const root = tempDir("toctou");
const cwd = join(root.path, "proj");
const outsideDir = join(root.path, "outside");
const outsideFile = join(outsideDir, "secret.txt");
const home = join(root.path, "home");
let round = 0;

beforeAll(() => {
  mkdirSync(cwd);
  mkdirSync(outsideDir);
  mkdirSync(home);
});
afterAll(() => root.cleanup());
afterEach(() => {
  // Every test leaves the outside file exactly as it was.
  expect(readFileSync(outsideFile, "utf8")).toBe(`${SECRET}\n`);
});

/** Fresh files; links left by an earlier test are removed first, never written through. */
function resetFiles(): void {
  for (const name of ["inside.txt", "inside.bak", "d", "d.real", "d.moved", "x", "x.tmp"])
    rmSync(join(cwd, name), { recursive: true, force: true });
  writeFileSync(outsideFile, `${SECRET}\n`);
  writeFileSync(join(outsideDir, "OUTSIDE-SECRET-name"), ""); // shows up if ls lists the outside
  writeFileSync(join(cwd, "inside.txt"), "inside #\n");
  mkdirSync(join(cwd, "d"), { recursive: true });
  writeFileSync(join(cwd, "d", "secret.txt"), "inside #\n");
}

/** The user's stand-in: allows what the prompt shows inside cwd, denies anything outside. */
function insideOnlyAsker() {
  const asks: PermissionAsk[] = [];
  const asker = async (ask: PermissionAsk): Promise<PermissionAnswer> => {
    asks.push(ask);
    const outside = ask.details?.some((d) => d.label === "Outside the working directory" && d.value !== "no");
    return { kind: "choice", choice_id: outside ? "deny" : "allow_once" };
  };
  return Object.assign(asker, { asks });
}

/** Gate then tool, as the runtime runs them; the text is what the model would see. */
async function gateThenRun(tool: AnyTool, args: Record<string, unknown>): Promise<string> {
  const asker = insideOnlyAsker();
  const decision = await createPermissionGate({ home, cwd }).decide(check(tool, args, cwd), asker);
  if (!decision.allowed) return "";
  const judged = decision.judgedPaths ? { judgedPaths: decision.judgedPaths } : {};
  return resultText(await tool.execute(args, toolContext(cwd, judged)));
}

/** Runs `rounds` calls while the child swaps; returns how many calls saw the outside file. */
async function raceAgainstSwapper(
  mode: "final" | "file" | "dir",
  call: () => Promise<string>,
): Promise<{ leaks: string[]; swapperExit: number }> {
  round += 1;
  const stopFile = join(root.path, `stop-${round}`);
  const target = mode === "dir" ? outsideDir : outsideFile;
  const swapper = Bun.spawn([process.execPath, SWAPPER, mode, cwd, target, stopFile, "2000000"], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = swapper.stdout.getReader();
  const first = await reader.read();
  expect(new TextDecoder().decode(first.value)).toBe("ready\n");
  const leaks: string[] = [];
  try {
    for (let i = 0; i < ROUNDS; i++) {
      const text = await call();
      if (text.includes("OUTSIDE-SECRET")) leaks.push(text);
    }
  } finally {
    writeFileSync(stopFile, "");
  }
  return { leaks, swapperExit: await swapper.exited };
}

describe("a link swapped between check and use never exposes the outside file (negative)", () => {
  test("read of a link flipping inside ↔ outside", async () => {
    resetFiles();
    const read = createReadTool();
    const { leaks, swapperExit } = await raceAgainstSwapper("final", () => gateThenRun(read, { path: "x" }));
    expect(swapperExit).toBe(0);
    expect(leaks).toEqual([]);
  });

  test("write and edit of a link flipping inside ↔ outside change only what was allowed", async () => {
    resetFiles();
    const write = createWriteTool();
    const edit = createEditTool();
    const { leaks, swapperExit } = await raceAgainstSwapper("final", async () => {
      await gateThenRun(write, { path: "x", content: "inside #\n" });
      return gateThenRun(edit, { path: "x", old_string: "#", new_string: "#" + "+" });
    });
    expect(swapperExit).toBe(0);
    expect(leaks).toEqual([]);
    expect(readFileSync(outsideFile, "utf8")).toBe(`${SECRET}\n`);
  });

  test("read, ls and grep under a directory flipping real ↔ link to outside", async () => {
    resetFiles();
    const read = createReadTool();
    const ls = createLsTool();
    const grep = createGrepTool({ backend: "builtin" });
    const { leaks, swapperExit } = await raceAgainstSwapper("dir", async () => {
      const texts = [
        await gateThenRun(read, { path: "d/secret.txt" }),
        await gateThenRun(grep, { pattern: "SECRET" }),
        await gateThenRun(ls, { path: "d" }),
      ];
      return texts.join("\n");
    });
    expect(swapperExit).toBe(0);
    expect(leaks).toEqual([]);
  });
});

describe("ripgrep's own opens are checked too (negative)", () => {
  test("grep with rg over a file flipping regular ↔ link to outside", async () => {
    resetFiles();
    const grep = createGrepTool({ backend: "rg" });
    const { leaks, swapperExit } = await raceAgainstSwapper("file", () =>
      gateThenRun(grep, { pattern: "#" }),
    );
    expect(swapperExit).toBe(0);
    expect(leaks).toEqual([]);
  });

  test("lines rg reports that the verified file does not hold are left out", async () => {
    resetFiles();
    const inside = join(cwd, "inside.txt");
    const reported: GrepRecord[] = [
      { path: inside, line: 1, text: "inside #", isMatch: true },
      { path: inside, line: 1, text: SECRET, isMatch: true }, // what a swapped open would have read
      { path: join(cwd, "d"), line: 1, text: SECRET, isMatch: true }, // not a file
    ];
    const verified = await keepVerifiedRecords(reported);
    expect(verified.records).toEqual(reported.slice(0, 1));
    expect(verified.dropped).toBe(2);
  });
});

describe("the open refuses a path that changed after it was judged (deterministic)", () => {
  test("a final component replaced by a link is not followed", async () => {
    resetFiles();
    const judged = resolveRealPath(cwd, "inside.txt");
    renameSync(judged, join(cwd, "inside.bak"));
    symlinkSync(outsideFile, judged);
    await expect(nodeFileOps.readFile(judged)).rejects.toBeInstanceOf(PathChangedError);
    await expect(nodeFileOps.writeFile(judged, "changed")).rejects.toBeInstanceOf(PathChangedError);
    await expect(nodeFileOps.stat(judged)).rejects.toBeInstanceOf(PathChangedError);
    const text = resultText(
      await createReadTool().execute(
        { path: "inside.txt" },
        toolContext(cwd, { judgedPaths: new Map([["inside.txt", judged]]) }),
      ),
    );
    expect(text).toContain("changed while it was being opened");
  });

  test("a directory in the path replaced by a link is not traversed, for reads, writes and new files", async () => {
    resetFiles();
    const judgedFile = resolveRealPath(cwd, "d/secret.txt");
    const judgedNew = resolveRealPath(cwd, "d/new/deeper.txt");
    renameSync(join(cwd, "d"), join(cwd, "d.moved"));
    symlinkSync(outsideDir, join(cwd, "d"));
    await expect(nodeFileOps.readFile(judgedFile)).rejects.toBeInstanceOf(PathChangedError);
    await expect(nodeFileOps.readDir(join(cwd, "d"))).rejects.toBeInstanceOf(PathChangedError);
    await expect(nodeFileOps.writeFile(judgedFile, "changed")).rejects.toBeInstanceOf(PathChangedError);
    await expect(nodeFileOps.writeFile(judgedNew, "new")).rejects.toBeInstanceOf(PathChangedError);
    expect(() => readFileSync(join(outsideDir, "new", "deeper.txt"))).toThrow();
  });
});
