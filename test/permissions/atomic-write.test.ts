/** The grants file's durable write: a failed rename leaves no temp file behind (issue 7 §A.4). */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { atomicWriteFileSync } from "../../src/support/atomic-write.ts";
import { useGrantProjects } from "./grant-fixtures.ts";

const setup = useGrantProjects();

describe("atomic write", () => {
  test("a rename that fails (the target is a directory) throws and leaves no .tmp file", () => {
    const { outside } = setup();
    const target = join(outside, "grants.json");
    mkdirSync(join(target, "child"), { recursive: true });
    expect(() => atomicWriteFileSync(target, "{}")).toThrow();
    expect(readdirSync(outside)).toEqual(["grants.json"]);
    expect(statSync(target).isDirectory()).toBe(true);
  });

  test("a successful write replaces the file with a private one and leaves nothing else", () => {
    const { outside } = setup();
    const target = join(outside, "grants.json");
    atomicWriteFileSync(target, "one");
    atomicWriteFileSync(target, "two");
    expect(readFileSync(target, "utf8")).toBe("two");
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(readdirSync(outside)).toEqual(["grants.json"]);
  });
});
