/**
 * Typed results with the check the caller picks: the page's interpreted check (its CSP forbids
 * generated code) gives the same verdicts as the shared one and never generates code, however
 * often it runs; a result outside its schema is an INTERNAL_ERROR naming the command and field.
 * `session_op` answers are narrowed by op.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { TSchema } from "@sinclair/typebox";
import { checkResult } from "../../src/client/command-result.ts";
import { sessionOpResult } from "../../src/client/session-op-result.ts";
import { COMMANDS } from "../../src/types/command-table.ts";
import { COMPILE_AFTER, SchemaCheck, sharedCheck } from "../../src/wire/schema-check.ts";
import { interpretedCheck, type SchemaChecker } from "../../src/wire/schema-checker.ts";

const MODES = {
  modes: [
    { name: "build", description: "edit files" },
    { name: "plan", description: "read only" },
  ],
  active: "build",
};
const NOT_MODES = { modes: "build", active: "build" };

/** Code generation refused, as a page's `script-src` without `unsafe-eval` refuses it. */
const realFunction = Object.getOwnPropertyDescriptor(globalThis, "Function");
function forbidGeneratedCode(): void {
  Object.defineProperty(globalThis, "Function", {
    configurable: true,
    writable: true,
    value: class RefusedFunction {
      constructor() {
        throw new EvalError("Refused to evaluate a string as JavaScript (CSP)");
      }
    },
  });
}
afterEach(() => {
  if (realFunction) Object.defineProperty(globalThis, "Function", realFunction);
});

describe("checkResult", () => {
  for (const [name, check] of [
    ["interpreted", interpretedCheck],
    ["shared", sharedCheck],
  ] as const) {
    test(`${name} check: a result in its schema is typed, one outside is INTERNAL_ERROR naming the field`, () => {
      const ok = checkResult("list_modes", MODES, check);
      expect(ok).toEqual({ ok: true, result: MODES });
      const bad = checkResult("list_modes", NOT_MODES, check);
      expect(bad.ok).toBe(false);
      if (bad.ok) return;
      expect(bad.error.code).toBe("INTERNAL_ERROR");
      expect(bad.error.message).toContain('list_modes response: field "data.modes"');
      expect(bad.error.message).toContain("does not match the protocol's result schema");
      // An empty result arrives without `data`.
      expect(checkResult("abort", undefined, check)).toEqual({ ok: true, result: {} });
    });
  }

  test("the interpreted check never generates code, however often it runs", () => {
    forbidGeneratedCode();
    for (let i = 0; i < COMPILE_AFTER * 2; i++) {
      expect(checkResult("list_modes", MODES, interpretedCheck).ok).toBe(true);
      expect(checkResult("list_modes", NOT_MODES, interpretedCheck).ok).toBe(false);
    }
    // The control: a check that compiles once hot does generate code, which such a page refuses.
    const compiling = new SchemaCheck(COMMANDS.list_modes.result);
    expect(() => {
      for (let i = 0; i < COMPILE_AFTER * 2; i++) compiling.check(MODES);
    }).toThrow(EvalError);
  });

  test("the check is injected: it is asked about the command's result schema", () => {
    const asked: TSchema[] = [];
    const recording: SchemaChecker = (schema, value) => {
      asked.push(schema);
      return interpretedCheck(schema, value);
    };
    expect(checkResult("workspace.list", { workspaces: [] }, recording).ok).toBe(true);
    expect(asked).toEqual([COMMANDS["workspace.list"].result]);
  });
});

describe("sessionOpResult", () => {
  const FORK = { fork_id: "f1", session_id: "s2", head_entry_id: "e9" };
  const NOT_COMPACTED = { compacted: false, reason: "no_safe_cut" } as const;

  test("the answer of the op asked for is that op's result", () => {
    expect(sessionOpResult("fork", FORK, interpretedCheck)).toEqual({ ok: true, result: FORK });
    expect(sessionOpResult("compact", NOT_COMPACTED, interpretedCheck)).toEqual({
      ok: true,
      result: NOT_COMPACTED,
    });
  });

  test("another op's answer is INTERNAL_ERROR", () => {
    const wrong = sessionOpResult("compact", FORK, interpretedCheck);
    expect(wrong.ok).toBe(false);
    if (wrong.ok) return;
    expect(wrong.error.code).toBe("INTERNAL_ERROR");
    expect(wrong.error.message).toContain("session_op compact: the answer is not the compact result");
  });
});
