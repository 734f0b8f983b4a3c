/**
 * A grants file that someone else could have written, or that would hang or flood the agent,
 * is not trusted at all: no grant applies, the user is told which file and why, and it is never
 * overwritten (negative tests, issue 7 §A.4).
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, chownSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createPermissionGate } from "../../src/permissions/gate.ts";
import { GRANT_FILE_MAX_BYTES } from "../../src/permissions/grant-store.ts";
import { bashTool, check, recordingAsker } from "./fixtures.ts";
import { bash, deny, useGrantProjects } from "./grant-fixtures.ts";

const setup = useGrantProjects();
const always = { kind: "decision", decision: "allow_always" } as const;

/** A project with a saved `make` grant; `hostile()` then runs `make` on a gate that records warnings. */
async function projectWithGrant() {
  const project = setup();
  const { home, proj, restart, grantFile } = project;
  await restart().decide(check(bashTool, bash("make"), proj), recordingAsker(always));
  const validFile = readFileSync(grantFile, "utf8");
  const hostile = async () => {
    const warnings: string[] = [];
    const gate = createPermissionGate({ home, cwd: proj, onWarning: (m) => warnings.push(m) });
    const asker = recordingAsker(deny);
    const decision = await gate.decide(check(bashTool, bash("make"), proj), asker);
    return { decision, asked: asker.asks.length, warnings, gate };
  };
  return { ...project, validFile, hostile };
}

function expectRefused(
  result: Awaited<ReturnType<Awaited<ReturnType<typeof projectWithGrant>>["hostile"]>>,
  grantFile: string,
  why: string,
) {
  expect({ allowed: result.decision.allowed, asked: result.asked }).toEqual({ allowed: false, asked: 1 });
  expect(result.warnings).toHaveLength(1);
  expect(result.warnings[0]).toContain(grantFile);
  expect(result.warnings[0]).toContain(why);
}

describe("an untrusted grants file allows nothing and is reported", () => {
  test("a FIFO is refused without blocking", async () => {
    const { grantFile, hostile } = await projectWithGrant();
    Bun.spawnSync(["rm", grantFile]);
    expect(Bun.spawnSync(["mkfifo", "-m", "600", grantFile]).exitCode).toBe(0);
    expectRefused(await hostile(), grantFile, "a FIFO");
  });

  test("a symlink is refused, whether it points to /dev/zero or to a valid grants file", async () => {
    const { grantFile, hostile, validFile, outside } = await projectWithGrant();
    const elsewhere = join(outside, "grants.json");
    writeFileSync(elsewhere, validFile, { mode: 0o600 });
    for (const target of [elsewhere, "/dev/zero"]) {
      Bun.spawnSync(["rm", "-f", grantFile]);
      symlinkSync(target, grantFile);
      expectRefused(await hostile(), grantFile, "a symbolic link");
    }
  });

  for (const mode of [0o644, 0o660, 0o666, 0o604]) {
    test(`a file with mode 0${mode.toString(8)} is refused, with the chmod that fixes it`, async () => {
      const { grantFile, hostile } = await projectWithGrant();
      chmodSync(grantFile, mode);
      const result = await hostile();
      expectRefused(result, grantFile, "group or others can access it");
      expect(result.warnings[0]).toContain(`chmod 600 '${grantFile}'`);
    });
  }

  test(`a file over ${GRANT_FILE_MAX_BYTES} bytes is refused even though its rules are valid`, async () => {
    const { grantFile, hostile, validFile } = await projectWithGrant();
    const padded = validFile.replace(/\n$/, "") + " ".repeat(GRANT_FILE_MAX_BYTES);
    expect(JSON.parse(padded).rules).toHaveLength(1);
    writeFileSync(grantFile, padded);
    expectRefused(await hostile(), grantFile, "larger than 1 MiB");
  });

  test("a grants directory that group or others can write is refused", async () => {
    const { grantFile, hostile } = await projectWithGrant();
    const dir = join(grantFile, "..");
    chmodSync(dir, 0o777);
    const result = await hostile();
    expectRefused(result, grantFile, "writable by group or others");
    expect(result.warnings[0]).toContain(`chmod 700 '${dir}'`);
  });

  // chown to another uid needs root; elsewhere the test is reported as skipped, with this name.
  const isRoot = process.getuid?.() === 0;
  test.skipIf(!isRoot)(
    "a file owned by another user is refused (runs only as root: chown to uid 65534)",
    async () => {
      const { grantFile, hostile } = await projectWithGrant();
      chownSync(grantFile, 65534, 65534);
      expectRefused(await hostile(), grantFile, "owned by another user (uid 65534");
    },
  );
});

describe("the grants file is private and an untrusted one is never overwritten", () => {
  test("the grants directory is created 0700 and the file 0600", async () => {
    const { grantFile } = await projectWithGrant();
    expect(statSync(join(grantFile, "..")).mode & 0o777).toBe(0o700);
    expect(statSync(grantFile).mode & 0o777).toBe(0o600);
  });

  test("saving a grant over a refused file allows this call, keeps the file and says it was not saved", async () => {
    const { home, proj, grantFile } = await projectWithGrant();
    chmodSync(grantFile, 0o666);
    const before = readFileSync(grantFile, "utf8");
    const warnings: string[] = [];
    const gate = createPermissionGate({ home, cwd: proj, onWarning: (m) => warnings.push(m) });
    const decision = await gate.decide(check(bashTool, bash("make test"), proj), recordingAsker(always));
    expect(decision).toEqual({ allowed: true, source: "user" });
    expect(readFileSync(grantFile, "utf8")).toBe(before);
    expect(statSync(grantFile).mode & 0o777).toBe(0o666);
    expect(warnings.at(-1)).toContain("The grant was not saved.");
  });

  test("the same problem is reported once, and again after it changed", async () => {
    const { grantFile, hostile, proj } = await projectWithGrant();
    chmodSync(grantFile, 0o644);
    const { gate, warnings } = await hostile();
    await gate.decide(check(bashTool, bash("make"), proj), recordingAsker(deny));
    expect(warnings).toHaveLength(1);
    chmodSync(grantFile, 0o600);
    expect(await gate.decide(check(bashTool, bash("make"), proj), recordingAsker())).toEqual({
      allowed: true,
      source: "grant",
    });
    chmodSync(grantFile, 0o644);
    await gate.decide(check(bashTool, bash("make"), proj), recordingAsker(deny));
    expect(warnings).toHaveLength(2);
  });
});
