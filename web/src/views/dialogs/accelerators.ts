/**
 * One key per answer of a dialog. A server-given `accelerator` wins when it is a single
 * character not already taken; otherwise the intent picks a familiar key (y allow, a always,
 * n deny) and anything left gets the next free digit. Keys are lower case and compared so.
 */
import type { PermissionChoice, PermissionDecision } from "../../../../src/types/permissions.ts";

const INTENT_KEYS: Record<PermissionChoice["intent"], string[]> = {
  allow: ["y"],
  persist: ["a", "s"],
  deny: ["n"],
};

const DECISION_KEYS: Record<PermissionDecision, string> = { allow: "y", allow_always: "a", deny: "n" };

const DIGITS = ["1", "2", "3", "4", "5", "6", "7", "8", "9"];

/** The key for each choice, in order; `undefined` when nine digits were not enough. */
export function choiceKeys(choices: readonly PermissionChoice[]): (string | undefined)[] {
  const taken = new Set<string>();
  const keys: (string | undefined)[] = choices.map((choice) => {
    const given = singleKey(choice.accelerator);
    if (given === undefined || taken.has(given)) return undefined;
    taken.add(given);
    return given;
  });
  for (const [i, choice] of choices.entries()) {
    if (keys[i] !== undefined) continue;
    const key = INTENT_KEYS[choice.intent].find((k) => !taken.has(k));
    if (key === undefined) continue;
    taken.add(key);
    keys[i] = key;
  }
  return fillWithDigits(keys, taken);
}

/** The key for each legacy option (no `choices` in the request). */
export function decisionKeys(options: readonly PermissionDecision[]): (string | undefined)[] {
  const taken = new Set<string>();
  const keys = options.map((option) => {
    const key = DECISION_KEYS[option];
    if (taken.has(key)) return undefined;
    taken.add(key);
    return key;
  });
  return fillWithDigits(keys, taken);
}

/** Digits 1–9 for the options of a `select` dialog. */
export function optionKeys(count: number): (string | undefined)[] {
  return Array.from({ length: count }, (_, i) => DIGITS[i]);
}

/** How a key is compared with `KeyboardEvent.key`. */
export function normalizeKey(key: string): string | undefined {
  return singleKey(key);
}

function singleKey(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const key = value.trim().toLowerCase();
  // One visible character only: "Ctrl+A" or "Enter" would fight the browser and the composer.
  return [...key].length === 1 && /\S/u.test(key) ? key : undefined;
}

function fillWithDigits(keys: (string | undefined)[], taken: Set<string>): (string | undefined)[] {
  const free = DIGITS.filter((d) => !taken.has(d));
  return keys.map((key) => key ?? free.shift());
}
