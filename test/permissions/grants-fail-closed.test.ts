import { describe, expect, test } from "bun:test";
import { readFileSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bashTool, check, PLAN, readTool, recordingAsker } from "./fixtures.ts";
import { bash, deny, useGrantProjects } from "./grant-fixtures.ts";

const setup = useGrantProjects();

describe("grants that must not match (negative)", () => {
  test("an exact grant does not cover a different request", async () => {
    const { proj, restart } = setup();
    await restart().decide(
      check(bashTool, bash("rm -rf build"), proj),
      recordingAsker({ kind: "decision", decision: "allow_always" }),
    );
    const asker = recordingAsker(deny);
    expect(await restart().decide(check(bashTool, bash("rm -rf build/"), proj), asker)).toMatchObject({
      allowed: false,
    });
    expect(asker.asks).toHaveLength(1);
  });

  test("a git [-s] signature grant does not cover extra flags, extra commands, substitutions or sudo", async () => {
    const { proj, restart } = setup();
    await restart().decide(
      check(bashTool, bash("git status -s"), proj),
      recordingAsker({ kind: "choice", choice_id: "allow_always_signature" }),
    );
    for (const command of [
      "git status -s --force",
      "git status",
      "git status -s; rm -rf /",
      "git status -s && rm -rf /",
      "git status -s | sh",
      "git status -s $(rm -rf /)",
      "git status -s `rm -rf /`",
      "sudo git status -s",
      "PATH=/tmp/evil git status -s",
      "./git status -s",
      "git status -s > ~/.bashrc",
    ]) {
      const asker = recordingAsker(deny);
      const decision = await restart().decide(check(bashTool, bash(command), proj), asker);
      expect({ command, allowed: decision.allowed, asked: asker.asks.length }).toEqual({
        command,
        allowed: false,
        asked: 1,
      });
    }
  });

  test("a signature grant is only for bash", async () => {
    const { proj, outside, restart, writeGrantFile } = setup();
    writeGrantFile({
      version: 1,
      cwd: proj,
      rules: [{ kind: "bash_signature", version: 1, signatures: [{ executable: "read", flags: [] }] }],
    });
    const asker = recordingAsker(deny);
    await restart().decide(check(readTool, { path: join(outside, "x") }, proj), asker);
    expect(asker.asks).toHaveLength(1);
  });

  test("unknown and malformed rule kinds fail closed without crashing", async () => {
    const { proj, restart, writeGrantFile } = setup();
    writeGrantFile({
      version: 1,
      cwd: proj,
      rules: [
        { kind: "allow_everything" },
        { kind: "exact", tool: "bash" },
        { kind: "exact", tool: "bash", input_sha256: 42 },
        { kind: "bash_signature", version: 2, signatures: [{ executable: "rm", flags: ["-f", "-r"] }] },
        { kind: "bash_signature", version: 1, signatures: [{ executable: "rm", flags: ["-r", "-f"] }] },
        { kind: "bash_signature", version: 1, signatures: [{ executable: "rm", flags: "-rf" }] },
        { kind: "bash_signature", version: 1, signatures: [] },
        { kind: "bash_signature", version: 1, signatures: [null] },
        null,
        "exact",
        ["bash"],
        { kind: { toString: "exact" } },
      ],
    });
    const asker = recordingAsker(deny);
    const decision = await restart().decide(check(bashTool, bash("rm -rf build"), proj), asker);
    expect(decision.allowed).toBe(false);
    expect(asker.asks).toHaveLength(1);
  });

  const brokenFiles: [string, (proj: string, validRules: unknown[]) => unknown][] = [
    ["malformed JSON", () => '{"version": 1, "rules": ['],
    ["a JSON array", (_proj, rules) => rules],
    ["rules that are not a list", (proj, rules) => ({ version: 1, cwd: proj, rules: { ...rules } })],
    ["a future file version", (proj, rules) => ({ version: 2, cwd: proj, rules })],
    ["a missing version", (proj, rules) => ({ cwd: proj, rules })],
    ["another project's cwd", (_proj, rules) => ({ version: 1, cwd: "/somewhere/else", rules })],
  ];
  for (const [what, corrupt] of brokenFiles) {
    test(`a grant file with ${what} allows nothing and does not crash`, async () => {
      const { proj, restart, grantFile, writeGrantFile } = setup();
      // Seed a rule that WOULD match if the file were trusted.
      await restart().decide(
        check(bashTool, bash("make"), proj),
        recordingAsker({ kind: "decision", decision: "allow_always" }),
      );
      const validRules = JSON.parse(readFileSync(grantFile, "utf8")).rules;
      writeGrantFile(corrupt(proj, validRules));
      const asker = recordingAsker(deny);
      const decision = await restart().decide(check(bashTool, bash("make"), proj), asker);
      expect(decision.allowed).toBe(false);
      expect(asker.asks).toHaveLength(1);
    });
  }

  test("a future-version grant file is not clobbered by a new grant", async () => {
    const { proj, restart, grantFile, writeGrantFile } = setup();
    const future = { version: 2, cwd: proj, rules: [{ kind: "something_new" }] };
    writeGrantFile(future);
    const decision = await restart().decide(
      check(bashTool, bash("make"), proj),
      recordingAsker({ kind: "decision", decision: "allow_always" }),
    );
    expect(decision).toMatchObject({ allowed: true, source: "user" });
    expect(JSON.parse(readFileSync(grantFile, "utf8"))).toEqual(future);
  });

  test("a grant does not override plan mode", async () => {
    const { proj, restart } = setup();
    await restart().decide(
      check(bashTool, bash("make"), proj),
      recordingAsker({ kind: "decision", decision: "allow_always" }),
    );
    const asker = recordingAsker();
    expect(await restart().decide(check(bashTool, bash("make"), proj, PLAN), asker)).toMatchObject({
      allowed: false,
      source: "mode",
    });
  });

  test("an exact grant for a read through a symlink stops matching when the link is re-pointed", async () => {
    const { proj, outside, restart } = setup();
    writeFileSync(join(outside, "notes.txt"), "n");
    writeFileSync(join(outside, "id_rsa"), "k");
    symlinkSync(join(outside, "notes.txt"), join(proj, "notes"));
    await restart().decide(
      check(readTool, { path: "notes" }, proj),
      recordingAsker({ kind: "choice", choice_id: "allow_always_exact" }),
    );
    expect(await restart().decide(check(readTool, { path: "notes" }, proj), recordingAsker())).toMatchObject({
      allowed: true,
      source: "grant",
    });
    unlinkSync(join(proj, "notes"));
    symlinkSync(join(outside, "id_rsa"), join(proj, "notes"));
    const asker = recordingAsker(deny);
    await restart().decide(check(readTool, { path: "notes" }, proj), asker);
    expect(asker.asks).toHaveLength(1);
    expect(asker.asks[0]?.details?.[0]?.value).toBe(join(outside, "id_rsa"));
  });
});
