import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { isInside, spelledInside } from "../../src/permissions/paths.ts";
import { resolveRealPath } from "../../src/support/real-path.ts";
import { tempDir } from "./fixtures.ts";

const root = tempDir("paths");
const proj = join(root.path, "proj");
const outside = join(root.path, "outside");

beforeAll(() => {
  mkdirSync(join(proj, "src"), { recursive: true });
  mkdirSync(join(root.path, "proj-evil"));
  mkdirSync(outside);
  writeFileSync(join(outside, "secret.txt"), "secret");
  writeFileSync(join(proj, "src", "a.ts"), "a");
  symlinkSync(outside, join(proj, "link"));
  symlinkSync(join(outside, "secret.txt"), join(proj, "file-link"));
  symlinkSync(join(outside, "created-by-write.txt"), join(proj, "dangling"));
  symlinkSync("loop-b", join(proj, "loop-a"));
  symlinkSync("loop-a", join(proj, "loop-b"));
});
afterAll(() => root.cleanup());

const inProj = (p: string) => isInside(proj, resolveRealPath(proj, p));

describe("paths outside cwd are recognised (negative)", () => {
  test("a sibling sharing the name prefix is not inside", () => {
    expect(isInside("/proj", "/proj-evil")).toBe(false);
    expect(isInside("/proj", "/proj-evil/x")).toBe(false);
    expect(inProj(join(root.path, "proj-evil", "x"))).toBe(false);
    expect(inProj("../proj-evil/x")).toBe(false);
  });

  test("`..` traversal escapes", () => {
    expect(inProj("../outside/secret.txt")).toBe(false);
    expect(inProj("src/../../outside/secret.txt")).toBe(false);
  });

  test("a symlinked directory inside cwd pointing outside resolves outside", () => {
    expect(resolveRealPath(proj, "link/secret.txt")).toBe(join(outside, "secret.txt"));
    expect(inProj("link/secret.txt")).toBe(false);
    expect(inProj("file-link")).toBe(false);
  });

  test("`..` after a symlink is resolved physically, not lexically", () => {
    // Lexically this is <proj>/outside/secret.txt; the kernel goes link → outside → .. → root.
    expect(resolveRealPath(proj, "link/../outside/secret.txt")).toBe(join(outside, "secret.txt"));
    expect(inProj("link/../outside/secret.txt")).toBe(false);
  });

  test("a dangling symlink resolves to where a write would create the file", () => {
    expect(resolveRealPath(proj, "dangling")).toBe(join(outside, "created-by-write.txt"));
    expect(inProj("dangling")).toBe(false);
  });

  test("a missing dir followed by `..` still goes through symlinks", () => {
    expect(inProj("newdir/../link/secret.txt")).toBe(false);
  });

  test("home-relative paths are expanded, not treated as a file named ~", () => {
    expect(resolveRealPath(proj, "~/x")).toBe(resolveRealPath("/", join(homedir(), "x")));
    expect(inProj("~/x")).toBe(false);
  });

  test("a symlink loop does not hang or throw", () => {
    expect(() => resolveRealPath(proj, "loop-a/x")).not.toThrow();
  });
});

describe("paths inside cwd", () => {
  test("cwd itself and existing files are inside", () => {
    expect(inProj(".")).toBe(true);
    expect(inProj("src/a.ts")).toBe(true);
    expect(inProj(join(proj, "src", "a.ts"))).toBe(true);
    expect(resolveRealPath(proj, "./src/../src/a.ts")).toBe(join(proj, "src", "a.ts"));
  });

  test("a new file in a new directory is inside", () => {
    expect(resolveRealPath(proj, "new/dir/file.ts")).toBe(join(proj, "new", "dir", "file.ts"));
    expect(inProj("new/dir/file.ts")).toBe(true);
  });

  test("a filesystem root cwd contains everything", () => {
    expect(isInside("/", "/etc/passwd")).toBe(true);
  });
});

describe("spelling versus real location", () => {
  test("a link followed by `..` is spelled as leaving cwd while really landing inside", () => {
    mkdirSync(join(proj, "deep", "er"), { recursive: true });
    symlinkSync("deep/er", join(proj, "two-down"));
    expect(inProj("two-down/../../src/a.ts")).toBe(true);
    expect(resolveRealPath(proj, "two-down/../../src/a.ts")).toBe(join(proj, "src", "a.ts"));
    expect(spelledInside(proj, "two-down/../../src/a.ts")).toBe(false);
  });

  test("ordinary paths are spelled where they are", () => {
    expect(spelledInside(proj, "src/../src/a.ts")).toBe(true);
    expect(spelledInside(proj, "../outside/secret.txt")).toBe(false);
    expect(spelledInside(proj, join(proj, "x"))).toBe(true);
  });
});
