/** Which key answers which permission choice (web/src/views/dialogs/accelerators.ts). */
import { describe, expect, test } from "bun:test";
import type { PermissionChoice } from "../../src/types/permissions.ts";
import {
  choiceKeys,
  decisionKeys,
  normalizeKey,
  optionKeys,
} from "../../web/src/views/dialogs/accelerators.ts";

const choice = (id: string, intent: PermissionChoice["intent"], accelerator?: string): PermissionChoice => ({
  id,
  label: id,
  intent,
  ...(accelerator !== undefined ? { accelerator } : {}),
});

describe("permission accelerators", () => {
  test("without server keys: y allow, a and s for the first two persist choices, n deny, digits after", () => {
    expect(
      choiceKeys([
        choice("once", "allow"),
        choice("exact", "persist"),
        choice("signature", "persist"),
        choice("project", "persist"),
        choice("deny", "deny"),
      ]),
    ).toEqual(["y", "a", "s", "1", "n"]);
  });

  test("a server key wins, case-insensitively; the intent default moves aside", () => {
    expect(
      choiceKeys([choice("once", "allow", "O"), choice("deny", "deny", "y"), choice("x", "allow")]),
    ).toEqual(["o", "y", "1"]);
  });

  test("a server key that is not one character, or is taken, falls back", () => {
    expect(
      choiceKeys([
        choice("a1", "allow", "Ctrl+A"),
        choice("a2", "persist", "a"),
        choice("a3", "persist", "a"),
      ]),
    ).toEqual(["y", "a", "s"]);
    expect(choiceKeys([choice("sp", "deny", " ")])).toEqual(["n"]);
  });

  test("more answers than keys: the rest have none", () => {
    const many = Array.from({ length: 12 }, (_, i) => choice(`c${i}`, "allow"));
    const keys = choiceKeys(many);
    expect(keys.slice(0, 10)).toEqual(["y", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);
    expect(keys.slice(10)).toEqual([undefined, undefined]);
  });

  test("legacy options and select options", () => {
    expect(decisionKeys(["allow", "allow_always", "deny"])).toEqual(["y", "a", "n"]);
    expect(optionKeys(3)).toEqual(["1", "2", "3"]);
    expect(optionKeys(10)[9]).toBeUndefined();
    expect(normalizeKey("Y")).toBe("y");
    expect(normalizeKey("Enter")).toBeUndefined();
  });
});
