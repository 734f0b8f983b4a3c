import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { bashTool, check, readTool, recordingAsker } from "./fixtures.ts";
import { bash, deny, useGrantProjects } from "./grant-fixtures.ts";

const setup = useGrantProjects();

describe("grants that persist and match", () => {
  test("allow_always persists; after a restart the same exact request runs without asking", async () => {
    const { proj, restart } = setup();
    const first = await restart().decide(
      check(bashTool, bash("rm -rf build"), proj),
      recordingAsker({ kind: "decision", decision: "allow_always" }),
    );
    expect(first).toMatchObject({ allowed: true, source: "user" });
    const asker = recordingAsker();
    expect(await restart().decide(check(bashTool, bash("rm -rf build"), proj), asker)).toEqual({
      allowed: true,
      source: "grant",
    });
    expect(asker.asks).toHaveLength(0);
  });

  test("the exact choice persists an exact rule; key order of the args does not matter", async () => {
    const { proj, outside, restart } = setup();
    await restart().decide(
      check(readTool, { path: join(outside, "a"), content: "x" }, proj),
      recordingAsker({ kind: "choice", choice_id: "allow_always_exact" }),
    );
    const asker = recordingAsker();
    expect(
      await restart().decide(check(readTool, { content: "x", path: join(outside, "a") }, proj), asker),
    ).toMatchObject({ allowed: true, source: "grant" });
  });

  test("a signature grant covers any command with the same executables, subcommands and exact flag sets", async () => {
    const { proj, restart } = setup();
    await restart().decide(
      check(bashTool, bash("git status -s"), proj),
      recordingAsker({ kind: "choice", choice_id: "allow_always_signature" }),
    );
    // Positional arguments after the subcommand are not part of a signature.
    for (const command of [
      "git status -s",
      "git status -s src",
      "/usr/bin/git status -s",
      "git status -ss",
    ]) {
      const asker = recordingAsker();
      expect({
        command,
        decision: await restart().decide(check(bashTool, bash(command), proj), asker),
      }).toEqual({
        command,
        decision: { allowed: true, source: "grant" },
      });
    }
  });

  test("a multi-command signature grant needs every simple command covered", async () => {
    const { proj, restart } = setup();
    await restart().decide(
      check(bashTool, bash("git add -A && git commit -m wip"), proj),
      recordingAsker({ kind: "choice", choice_id: "allow_always_signature" }),
    );
    expect(
      await restart().decide(check(bashTool, bash("git commit -m other"), proj), recordingAsker()),
    ).toEqual({
      allowed: true,
      source: "grant",
    });
    const asker = recordingAsker(deny);
    await restart().decide(check(bashTool, bash("git commit -m x && npm publish"), proj), asker);
    expect(asker.asks).toHaveLength(1);
  });

  test("the grant file is versioned, private (0600), per project, and replaced atomically", async () => {
    const { home, proj, restart, grantFile } = setup();
    expect(grantFile).toMatch(new RegExp(`${home}/grants/[0-9a-f]{16}\\.json$`));
    await restart().decide(
      check(bashTool, bash("make"), proj),
      recordingAsker({ kind: "decision", decision: "allow_always" }),
    );
    const firstInode = statSync(grantFile).ino;
    expect(statSync(grantFile).mode & 0o777).toBe(0o600);
    await restart().decide(
      check(bashTool, bash("git status"), proj),
      recordingAsker({ kind: "choice", choice_id: "allow_always_signature" }),
    );
    // Written to a temp file and renamed over: a new inode, no leftovers.
    expect(statSync(grantFile).ino).not.toBe(firstInode);
    expect(statSync(grantFile).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(home, "grants"))).toEqual([grantFile.slice(grantFile.lastIndexOf("/") + 1)]);
    const file = JSON.parse(readFileSync(grantFile, "utf8"));
    expect(file).toMatchObject({ version: 1, cwd: proj });
    expect(file.rules).toHaveLength(2);
    expect(file.rules[0]).toMatchObject({ kind: "exact", tool: "bash", display: "make" });
    expect(file.rules[0].input_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(file.rules[1]).toMatchObject({
      kind: "bash_signature",
      version: 2,
      signatures: [{ executable: "git", subcommand: ["status"], flags: [] }],
    });
  });

  test("unknown rules written by a newer runtime survive when a grant is added", async () => {
    const { proj, restart, grantFile, writeGrantFile } = setup();
    writeGrantFile({ version: 1, cwd: proj, rules: [{ kind: "future_kind", scope: "x" }] });
    await restart().decide(
      check(bashTool, bash("make"), proj),
      recordingAsker({ kind: "decision", decision: "allow_always" }),
    );
    const rules = JSON.parse(readFileSync(grantFile, "utf8")).rules;
    expect(rules[0]).toEqual({ kind: "future_kind", scope: "x" });
    expect(rules).toHaveLength(2);
  });

  test("a corrupt grant file is set aside, not lost, when a new grant is saved", async () => {
    const { home, proj, restart, grantFile, writeGrantFile } = setup();
    writeGrantFile("{not json");
    await restart().decide(
      check(bashTool, bash("make"), proj),
      recordingAsker({ kind: "decision", decision: "allow_always" }),
    );
    const names = readdirSync(join(home, "grants"));
    const aside = names.find((n) => n.includes(".corrupt-"));
    expect(aside).toBeDefined();
    expect(readFileSync(join(home, "grants", aside as string), "utf8")).toBe("{not json");
    expect(await restart().decide(check(bashTool, bash("make"), proj), recordingAsker())).toEqual({
      allowed: true,
      source: "grant",
    });
    expect(JSON.parse(readFileSync(grantFile, "utf8")).rules).toHaveLength(1);
  });

  test("two concurrent identical grants store one rule", async () => {
    const { proj, restart, grantFile } = setup();
    const g = restart();
    const always = () => recordingAsker({ kind: "choice", choice_id: "allow_always_signature" });
    const decisions = await Promise.all([
      g.decide(check(bashTool, bash("git status -s"), proj), always()),
      g.decide(check(bashTool, bash("git status -s"), proj), always()),
    ]);
    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect(JSON.parse(readFileSync(grantFile, "utf8")).rules).toHaveLength(1);
  });
});
