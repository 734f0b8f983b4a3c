import { describe, expect, test } from "bun:test";
import { COMMAND_SCHEMAS, EVENT_SCHEMAS } from "../../src/types/catalog.ts";
import { commandValidator, eventValidator, validateResult } from "../../src/wire/validate.ts";
import { MESSAGE_FIXTURES } from "../types/fixtures.ts";

const validatorFor = (direction: string) => (direction === "command" ? commandValidator : eventValidator);

describe("inbound validation through the wire validator", () => {
  test("the fixtures cover every command and event type", () => {
    const covered = new Set(MESSAGE_FIXTURES.map((f) => f.type));
    for (const type of [...COMMAND_SCHEMAS.keys(), ...EVENT_SCHEMAS.keys(), "response"]) {
      expect(covered.has(type)).toBe(true);
    }
  });

  for (const fixture of MESSAGE_FIXTURES) {
    test(`${fixture.type}: valid passes, broken fails naming "${fixture.brokenField}"`, () => {
      const validator = validatorFor(fixture.direction);
      const good = validator.validate(fixture.valid);
      expect(good.ok).toBe(true);
      const bad = validator.validate(fixture.broken);
      expect(bad.ok).toBe(false);
      if (!bad.ok) {
        expect(bad.error.code).toBe("INVALID_REQUEST");
        expect(bad.error.message).toContain(`"${fixture.brokenField}`);
      }
    });
  }

  test("an unknown type is rejected and named", () => {
    const r = commandValidator.validate({ type: "make_coffee", id: "1" });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain('unknown command type "make_coffee"');
  });

  test("a missing type and a non-object are rejected", () => {
    const a = commandValidator.validate({ id: "1" });
    const b = commandValidator.validate([1, 2]);
    expect(a.ok || b.ok).toBe(false);
    if (!a.ok) expect(a.error.message).toContain('"type"');
  });

  test("an event type is not accepted as a command", () => {
    const r = commandValidator.validate({ type: "turn_start", turn_id: "t" });
    expect(r.ok).toBe(false);
  });

  test("permission_response with both choice_id and decision is rejected", () => {
    const r = commandValidator.validate({
      type: "permission_response",
      request_id: "req-1",
      choice_id: "allow_once",
      decision: "allow",
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain("exactly one");
  });

  test("permission_response with neither form is rejected", () => {
    const r = commandValidator.validate({ type: "permission_response", request_id: "req-1" });
    expect(r.ok).toBe(false);
  });

  test("a failed response must carry an error", () => {
    const r = eventValidator.validate({ type: "response", id: "1", command: "abort", success: false });
    expect(r.ok).toBe(false);
  });
});

describe("response data", () => {
  test("a pinned result shape is checked and the bad field named", () => {
    expect(validateResult("set_mode", { previous_mode: "build", mode: "plan" }).ok).toBe(true);
    const bad = validateResult("set_mode", { previous_mode: "build" });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.message).toContain('"data.mode"');
  });

  test("commands without a pinned result shape pass", () => {
    expect(validateResult("prompt", undefined).ok).toBe(true);
  });
});
