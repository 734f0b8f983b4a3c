/**
 * `bash_signature` analysis (docs/permissions.md): a command line is reduced to,
 * per simple command, its executable, its subcommand (`git status`, `npm run test`: see
 * `bash-command-policy.ts`) and the exact sorted set of flags. Other positional arguments are
 * NOT part of a signature, so a grant for `git diff -s a.ts` also covers `git diff -s b.ts` but
 * never `git push -s` or `git diff -s --force`. Whatever cannot be analysed safely (wrappers,
 * interpreters, substitutions, …) gets no signature at all, so no signature grant can match it.
 */

import { judgeCommand, optionName } from "./bash-command-policy.ts";
import { lexShell, type ShellWord } from "./bash-lexer.ts";

export interface CommandSignature {
  executable: string;
  /** `[]`, `["status"]` or `["run", "test"]`; v1 rules have none and match only commands without one. */
  subcommand: string[];
  /** Sorted, de-duplicated: `-rf` → `-f`,`-r`; `--opt=value` → `--opt`. */
  flags: string[];
}

export type BashAnalysis = { ok: true; signatures: CommandSignature[] } | { ok: false; reason: string };

/**
 * Leading `NAME=value` assignments are skipped only for variables that cannot change what runs.
 * `PATH=/tmp/evil git status` or `GIT_SSH_COMMAND=… git fetch` must not ride on a `git` grant.
 */
const HARMLESS_ASSIGNMENTS =
  /^(LANG|LANGUAGE|LC_[A-Z]+|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|COLUMNS|LINES|TERM|CI)$/;

/** Only well-known system locations are stripped, so `./git` never poses as `git`. */
const SYSTEM_BIN_DIR = /^\/(?:usr\/(?:local\/)?)?s?bin\/|^\/opt\/homebrew\/bin\//;

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;

export function analyzeBashCommand(command: string): BashAnalysis {
  const lexed = lexShell(command);
  if (!lexed.ok) return lexed;
  const signatures: CommandSignature[] = [];
  for (const words of lexed.commands) {
    const result = signatureOf(words);
    if (typeof result === "string") return { ok: false, reason: result };
    if (result) signatures.push(result);
  }
  if (signatures.length === 0) return { ok: false, reason: "no command to analyse" };
  return { ok: true, signatures: uniqueSignatures(signatures) };
}

/** A signature, `undefined` for an assignment-only command, or the reason it is unsafe. */
function signatureOf(words: ShellWord[]): CommandSignature | string | undefined {
  let index = 0;
  for (const word of words) {
    const name = ASSIGNMENT.exec(word.raw)?.[1];
    if (name === undefined) break;
    if (!HARMLESS_ASSIGNMENTS.test(name)) return `assignment to ${name} can change what the command runs`;
    index += 1;
  }
  const head = words[index];
  if (!head) return undefined;
  if (words.slice(index).some(patternCouldForgeFlags)) return "a glob or brace pattern could expand to flags";
  const executable = head.text.replace(SYSTEM_BIN_DIR, "");
  if (executable === "" || /[*?[\]{}]/.test(executable)) return "the executable name is not a plain word";
  const base = executable.slice(executable.lastIndexOf("/") + 1);
  const judged = judgeCommand(
    base,
    words.slice(index + 1).map((word) => word.text),
  );
  if (!judged.ok) return judged.reason;
  const flags = new Set<string>();
  for (const word of judged.optionWords) {
    for (const flag of flagsOf(word)) flags.add(flag);
  }
  return { executable, subcommand: judged.subcommand, flags: [...flags].sort() };
}

/**
 * `rm *` with a file named `-rf` becomes `rm -rf …`. A pattern is safe only behind a fixed
 * prefix that already decides the flag: `src/*.ts` (not a flag) or `--include=*.ts` (`--include`).
 */
function patternCouldForgeFlags(word: ShellWord): boolean {
  if (word.patternIndex < 0) return false;
  if (word.patternIndex === 0) return true;
  if (!word.text.startsWith("-")) return false;
  const equals = word.text.indexOf("=");
  return !(word.text.startsWith("--") && equals > 2 && equals < word.patternIndex);
}

function flagsOf(arg: string): string[] {
  if (!arg.startsWith("-") || arg === "-") return [];
  if (arg.startsWith("--")) return [optionName(arg)];
  return [...arg.slice(1)].map((ch) => `-${ch}`);
}

export function sameSignature(a: CommandSignature, b: CommandSignature): boolean {
  return (
    a.executable === b.executable && sameWords(a.subcommand, b.subcommand) && sameWords(a.flags, b.flags)
  );
}

function sameWords(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((word, i) => word === b[i]);
}

function uniqueSignatures(signatures: CommandSignature[]): CommandSignature[] {
  const unique: CommandSignature[] = [];
  for (const sig of signatures) if (!unique.some((u) => sameSignature(u, sig))) unique.push(sig);
  return unique;
}

/** `git status`: what a signature grant names, as shown in choice labels. */
export function commandName(sig: CommandSignature): string {
  return [sig.executable, ...sig.subcommand].join(" ");
}

/** "`git status` with the flag -s", "`git diff` with no flags": a signature in a choice label. */
export function formatSignature(sig: CommandSignature): string {
  const name = `\`${commandName(sig)}\``;
  if (sig.flags.length === 0) return `${name} with no flags`;
  if (sig.flags.length === 1) return `${name} with the flag ${sig.flags[0]}`;
  return `${name} with exactly the flags ${sig.flags.slice(0, -1).join(", ")} and ${sig.flags.at(-1)}`;
}
