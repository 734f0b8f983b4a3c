import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PermissionAsk } from "../../src/contracts/permission-gate.ts";
import { createPermissionGate } from "../../src/permissions/gate.ts";
import {
  BUILD,
  bashTool,
  check,
  editTool,
  PLAN,
  readTool,
  recordingAsker,
  tempDir,
  writeTool,
} from "./fixtures.ts";

const root = tempDir("gate");
const home = join(root.path, "shard-home");
const proj = join(root.path, "proj");
const outside = join(root.path, "outside");
const gate = () => createPermissionGate({ home, cwd: proj });
const deny = { kind: "decision", decision: "deny" } as const;

beforeAll(() => {
  mkdirSync(join(proj, "src"), { recursive: true });
  mkdirSync(join(root.path, "proj-evil"));
  mkdirSync(outside);
  writeFileSync(join(outside, "secret.txt"), "secret");
  writeFileSync(join(root.path, "proj-evil", "x.txt"), "x");
  writeFileSync(join(proj, "src", "a.ts"), "a");
  symlinkSync(outside, join(proj, "link"));
});
afterAll(() => root.cleanup());

function detailValues(ask: PermissionAsk | undefined, format: string): string[] {
  return (ask?.details ?? []).filter((d) => d.format === format).map((d) => d.value);
}

describe("mode policy denies without asking (negative)", () => {
  for (const [tool, args] of [
    [editTool, { path: "src/a.ts" }],
    [writeTool, { path: "src/new.ts", content: "x" }],
    [bashTool, { command: "ls" }],
  ] as const) {
    test(`plan mode denies ${tool.name}`, async () => {
      const asker = recordingAsker();
      const decision = await gate().decide(check(tool, args, proj, PLAN), asker);
      expect(asker.asks).toHaveLength(0);
      expect(decision).toEqual({
        allowed: false,
        source: "mode",
        reason: `plan mode: \`${tool.name}\` is not allowed. Plan mode is read-only; describe the change instead, or ask the user to switch to build mode.`,
      });
    });
  }

  test("a tool outside the mode's allowed list is denied and the reason names the allowed tools", async () => {
    const asker = recordingAsker();
    const mode = { name: "review", denyMutating: false, allowedTools: ["read", "grep"] };
    const decision = await gate().decide(check(bashTool, { command: "ls" }, proj, mode), asker);
    expect(asker.asks).toHaveLength(0);
    expect(decision.allowed).toBe(false);
    if (!decision.allowed) {
      expect(decision.source).toBe("mode");
      expect(decision.reason).toContain("review mode");
      expect(decision.reason).toContain("`read`, `grep`");
    }
  });

  test("plan mode still asks for a read outside cwd (reads outside cwd always ask)", async () => {
    const asker = recordingAsker(deny);
    const decision = await gate().decide(
      check(readTool, { path: join(outside, "secret.txt") }, proj, PLAN),
      asker,
    );
    expect(asker.asks).toHaveLength(1);
    expect(decision.allowed).toBe(false);
  });
});

describe("reads outside cwd ask and show where they really go (negative)", () => {
  test("an absolute path outside cwd asks", async () => {
    const asker = recordingAsker(deny);
    const decision = await gate().decide(check(readTool, { path: join(outside, "secret.txt") }, proj), asker);
    expect(decision).toEqual({
      allowed: false,
      source: "user",
      reason: "The user denied permission for `read`.",
    });
    expect(detailValues(asker.asks[0], "path")).toContain(join(outside, "secret.txt"));
    expect(asker.asks[0]?.prompt).toContain("outside the working directory");
  });

  test("a symlink inside cwd pointing outside asks and shows the resolved path", async () => {
    const asker = recordingAsker(deny);
    await gate().decide(check(readTool, { path: "link/secret.txt" }, proj), asker);
    expect(asker.asks).toHaveLength(1);
    const ask = asker.asks[0];
    expect(ask?.details).toContainEqual({
      label: "Path (outside the working directory)",
      value: join(outside, "secret.txt"),
      format: "path",
    });
    expect(ask?.details).toContainEqual({ label: "Requested as", value: "link/secret.txt", format: "path" });
  });

  test("a sibling directory sharing the cwd's name prefix asks", async () => {
    const asker = recordingAsker(deny);
    await gate().decide(check(readTool, { path: "../proj-evil/x.txt" }, proj), asker);
    expect(asker.asks).toHaveLength(1);
    expect(detailValues(asker.asks[0], "path")).toContain(join(root.path, "proj-evil", "x.txt"));
  });

  test("`..` traversal asks", async () => {
    const asker = recordingAsker(deny);
    await gate().decide(check(readTool, { path: "src/../../outside/secret.txt" }, proj), asker);
    expect(asker.asks).toHaveLength(1);
  });

  test("a tool whose paths() throws is never auto-allowed", async () => {
    const asker = recordingAsker(deny);
    const broken = {
      ...readTool,
      paths: () => {
        throw new Error("bad args");
      },
    };
    const decision = await gate().decide(check(broken, {}, proj), asker);
    expect(asker.asks).toHaveLength(1);
    expect(decision.allowed).toBe(false);
  });
});

describe("answers that are not an allow deny (negative)", () => {
  test("cancelled is denied with the reason", async () => {
    const asker = recordingAsker({ kind: "cancelled", reason: "headless policy deny" });
    const decision = await gate().decide(check(bashTool, { command: "rm -rf build" }, proj), asker);
    expect(decision.allowed).toBe(false);
    if (!decision.allowed) {
      expect(decision.source).toBe("cancelled");
      expect(decision.reason).toContain("headless policy deny");
    }
  });

  test("the deny choice denies", async () => {
    const asker = recordingAsker({ kind: "choice", choice_id: "deny" });
    const decision = await gate().decide(check(bashTool, { command: "rm -rf build" }, proj), asker);
    expect(decision).toMatchObject({ allowed: false, source: "user" });
  });

  test("an unknown choice id that slipped past the asker fails closed", async () => {
    const asker = recordingAsker({ kind: "choice", choice_id: "allow_everything_forever" });
    const decision = await gate().decide(check(bashTool, { command: "rm -rf build" }, proj), asker);
    expect(decision).toMatchObject({ allowed: false, source: "policy" });
  });

  test("the signature choice is not offered for an unanalysable command, and fails closed if sent", async () => {
    const asker = recordingAsker({ kind: "choice", choice_id: "allow_always_signature" });
    const decision = await gate().decide(check(bashTool, { command: "echo $(id)" }, proj), asker);
    expect(asker.asks[0]?.choices?.map((c) => c.id)).toEqual(["allow_once", "allow_always_exact", "deny"]);
    expect(decision).toMatchObject({ allowed: false, source: "policy" });
  });

  test("an asker that throws is a cancellation, not a crash", async () => {
    const decision = await gate().decide(check(bashTool, { command: "ls" }, proj), async () => {
      throw new Error("connection lost");
    });
    expect(decision).toMatchObject({ allowed: false, source: "cancelled" });
  });

  test("an already aborted turn is denied without asking", async () => {
    const asker = recordingAsker();
    const controller = new AbortController();
    controller.abort();
    const decision = await gate().decide(
      { ...check(bashTool, { command: "ls" }, proj), signal: controller.signal },
      asker,
    );
    expect(asker.asks).toHaveLength(0);
    expect(decision).toMatchObject({ allowed: false, source: "cancelled" });
  });
});

describe("allowed paths", () => {
  test("a read inside cwd is allowed without asking", async () => {
    const asker = recordingAsker();
    const decision = await gate().decide(check(readTool, { path: "src/a.ts" }, proj, PLAN), asker);
    expect(decision).toMatchObject({ allowed: true, source: "read_only" });
    expect(asker.asks).toHaveLength(0);
  });

  test("a write of a new file in a new dir asks normally, as inside cwd", async () => {
    const asker = recordingAsker({ kind: "decision", decision: "allow" });
    const decision = await gate().decide(
      check(writeTool, { path: "new/dir/f.ts", content: "x" }, proj),
      asker,
    );
    expect(decision).toMatchObject({ allowed: true, source: "user" });
    const ask = asker.asks[0];
    expect(ask?.prompt).toBe("Allow write: new/dir/f.ts?");
    expect(ask?.details).toContainEqual({
      label: "Path",
      value: join(proj, "new", "dir", "f.ts"),
      format: "path",
    });
    expect(ask?.details).toContainEqual({
      label: "Outside the working directory",
      value: "no",
      format: "text",
    });
  });

  test("a bash ask carries the command, cwd and the server-defined choices", async () => {
    const asker = recordingAsker({ kind: "choice", choice_id: "allow_once" });
    const decision = await gate().decide(check(bashTool, { command: "rm -rf build" }, proj), asker);
    expect(decision).toMatchObject({ allowed: true, source: "user" });
    const ask = asker.asks[0];
    expect(ask).toMatchObject({
      tool_name: "bash",
      input: { command: "rm -rf build" },
      prompt: "Allow bash: rm -rf build?",
      options: ["allow", "allow_always", "deny"],
    });
    expect(ask?.details).toEqual([
      { label: "Command", value: "rm -rf build", format: "command" },
      { label: "Working directory", value: proj, format: "path" },
    ]);
    expect(ask?.choices?.map((c) => [c.id, c.intent])).toEqual([
      ["allow_once", "allow"],
      ["allow_always_exact", "persist"],
      ["allow_always_signature", "persist"],
      ["deny", "deny"],
    ]);
    expect(ask?.choices?.[1]?.label).toBe("Always allow this exact command");
    expect(ask?.choices?.[2]?.label).toBe(
      "Always allow `rm` with exactly the flags -f and -r, and any other arguments",
    );
  });

  test("the legacy allow decision allows once", async () => {
    const asker = recordingAsker({ kind: "decision", decision: "allow" }, deny);
    const g = gate();
    expect(await g.decide(check(bashTool, { command: "make" }, proj, BUILD), asker)).toEqual({
      allowed: true,
      source: "user",
    });
    expect(await g.decide(check(bashTool, { command: "make" }, proj, BUILD), asker)).toMatchObject({
      allowed: false,
    });
    expect(asker.asks).toHaveLength(2);
  });
});
