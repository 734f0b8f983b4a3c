/**
 * Signature grants name the subcommand (v2) and never cover wrappers: the attacks from issue 7
 * §A.3 through the real gate and grant file (negative tests).
 */
import { describe, expect, test } from "bun:test";
import { bashTool, check, recordingAsker } from "./fixtures.ts";
import { bash, deny, useGrantProjects } from "./grant-fixtures.ts";

const setup = useGrantProjects();
const signatureChoice = { kind: "choice", choice_id: "allow_always_signature" } as const;

/** Asserts each command is asked about (not allowed by a grant) in a fresh gate. */
async function expectAsked(
  restart: () => ReturnType<ReturnType<typeof setup>["restart"]>,
  proj: string,
  commands: string[],
) {
  for (const command of commands) {
    const asker = recordingAsker(deny);
    const decision = await restart().decide(check(bashTool, bash(command), proj), asker);
    expect({ command, allowed: decision.allowed, asked: asker.asks.length }).toEqual({
      command,
      allowed: false,
      asked: 1,
    });
  }
}

describe("a signature grant is for one subcommand", () => {
  test("a `git status` grant does not allow `git push`, config changes or global options", async () => {
    const { proj, restart } = setup();
    await restart().decide(check(bashTool, bash("git status"), proj), recordingAsker(signatureChoice));
    expect(await restart().decide(check(bashTool, bash("git status src"), proj), recordingAsker())).toEqual({
      allowed: true,
      source: "grant",
    });
    await expectAsked(restart, proj, [
      "git push",
      "git log",
      "git config alias.st '!touch M'",
      "git -c core.fsmonitor='touch M' status",
      "git -C /tmp status",
    ]);
  });

  test("an `npm run test` grant does not allow another script or `npm exec`", async () => {
    const { proj, restart } = setup();
    await restart().decide(check(bashTool, bash("npm run test"), proj), recordingAsker(signatureChoice));
    await expectAsked(restart, proj, ["npm run deploy", "npm exec cowsay", "npm install cowsay"]);
  });

  test("a `cd src && git status` grant does not allow `cd` into another repository", async () => {
    const { proj, restart } = setup();
    await restart().decide(
      check(bashTool, bash("cd src && git status"), proj),
      recordingAsker(signatureChoice),
    );
    expect(
      await restart().decide(check(bashTool, bash("cd src && git status"), proj), recordingAsker()),
    ).toEqual({
      allowed: true,
      source: "grant",
    });
    await expectAsked(restart, proj, ["cd /tmp/evil && git status", "cd .. && git status"]);
  });

  test("the choice names the subcommand and says other arguments are not compared", async () => {
    const { proj, restart } = setup();
    const asker = recordingAsker(deny);
    await restart().decide(check(bashTool, bash("git status -s"), proj), asker);
    const choice = asker.asks[0]?.choices?.find((c) => c.id === "allow_always_signature");
    expect(choice?.label).toBe("Always allow `git status` with the flag -s, and any other arguments");
  });

  test("a v1 rule from an older runtime no longer covers a subcommand it never recorded", async () => {
    const { proj, restart, writeGrantFile } = setup();
    writeGrantFile({
      version: 1,
      cwd: proj,
      rules: [
        { kind: "bash_signature", version: 1, signatures: [{ executable: "git", flags: ["-s"] }] },
        { kind: "bash_signature", version: 1, signatures: [{ executable: "rm", flags: ["-f", "-r"] }] },
      ],
    });
    await expectAsked(restart, proj, ["git push -s", "git status -s"]);
    // Commands without a subcommand keep their v1 meaning.
    expect(await restart().decide(check(bashTool, bash("rm -rf build"), proj), recordingAsker())).toEqual({
      allowed: true,
      source: "grant",
    });
  });
});

describe("malformed version 2 rules allow nothing", () => {
  test("a subcommand that is missing, an option, too long or not text fails closed", async () => {
    const { proj, restart, writeGrantFile } = setup();
    const rule = (signature: object) => ({ kind: "bash_signature", version: 2, signatures: [signature] });
    writeGrantFile({
      version: 1,
      cwd: proj,
      rules: [
        rule({ executable: "git", flags: [] }),
        rule({ executable: "git", subcommand: "status", flags: [] }),
        rule({ executable: "git", subcommand: ["-c"], flags: [] }),
        rule({ executable: "git", subcommand: ["status", "x", "y"], flags: [] }),
        rule({ executable: "git", subcommand: [7], flags: [] }),
        rule({ executable: "git", subcommand: [""], flags: [] }),
        {
          kind: "bash_signature",
          version: 3,
          signatures: [{ executable: "git", subcommand: ["status"], flags: [] }],
        },
      ],
    });
    await expectAsked(restart, proj, ["git status", "git"]);
  });
});

describe("wrappers are never covered by a signature grant", () => {
  for (const wrapper of ["stdbuf -oL", "taskset -c 0", "flock /tmp/lock"]) {
    test(`\`${wrapper} ls\` offers no signature choice, and a stored rule for it allows nothing`, async () => {
      const { proj, restart, writeGrantFile } = setup();
      const asker = recordingAsker(signatureChoice);
      const first = await restart().decide(check(bashTool, bash(`${wrapper} ls`), proj), asker);
      expect(first.allowed).toBe(false);
      expect(asker.asks[0]?.choices?.map((c) => c.id)).not.toContain("allow_always_signature");
      const executable = wrapper.split(" ")[0] as string;
      const flags = wrapper.includes(" -") ? [`-${wrapper.split(" -")[1]?.[0]}`] : [];
      // What today's runtime would have stored for the same answer, written by hand.
      writeGrantFile({
        version: 1,
        cwd: proj,
        rules: [
          { kind: "bash_signature", version: 1, signatures: [{ executable, flags }] },
          { kind: "bash_signature", version: 2, signatures: [{ executable, subcommand: [], flags }] },
        ],
      });
      await expectAsked(restart, proj, [`${wrapper} touch M`]);
    });
  }
});
