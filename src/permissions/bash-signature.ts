/**
 * `bash_signature` v1 analysis (PROTOCOL §9.5): a command line is reduced to, per simple
 * command, its executable and the exact sorted set of flags. Positional arguments are NOT part
 * of a signature, so a grant for `git status -s` also covers `git log -s` (same executable, same
 * flags) but never `git status -s --force`. Whatever cannot be analysed safely gets no
 * signature at all, so no signature grant can ever match it.
 */
import { lexShell, type ShellWord } from "./bash-lexer.ts";

export interface CommandSignature {
  executable: string;
  /** Sorted, de-duplicated: `-rf` → `-f`,`-r`; `--opt=value` → `--opt`. */
  flags: string[];
}

export type BashAnalysis = { ok: true; signatures: CommandSignature[] } | { ok: false; reason: string };

/**
 * Programs whose positional arguments are themselves commands or that change how later
 * commands resolve (wrappers, shells, privilege changes, shell keywords and state builtins):
 * "executable + flags" says nothing about what they run.
 */
// biome-ignore format: a word list reads best packed
const UNANALYSABLE_EXECUTABLES = new Set([
  "eval", "exec", "sudo", "doas", "su", "pkexec", "env", "command", "builtin", "xargs", "nohup",
  "nice", "ionice", "timeout", "time", "watch", "setsid", "chroot", "sh", "bash", "zsh", "dash",
  "ksh", "fish", "csh", "tcsh", "source", ".", "trap", "alias", "hash", "enable", "export",
  "declare", "typeset", "readonly", "local", "set", "shopt", "function", "if", "then", "else",
  "elif", "fi", "for", "while", "until", "do", "done", "case", "esac", "select", "in", "coproc",
  "{", "}", "!", "[[", "]]",
]);

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
  for (; index < words.length; index += 1) {
    const name = ASSIGNMENT.exec((words[index] as ShellWord).raw)?.[1];
    if (name === undefined) break;
    if (!HARMLESS_ASSIGNMENTS.test(name)) return `assignment to ${name} can change what the command runs`;
  }
  const head = words[index];
  if (!head) return undefined;
  if (words.slice(index).some(patternCouldForgeFlags)) return "a glob or brace pattern could expand to flags";
  const executable = head.text.replace(SYSTEM_BIN_DIR, "");
  if (executable === "" || /[*?[\]{}]/.test(executable)) return "the executable name is not a plain word";
  const base = executable.slice(executable.lastIndexOf("/") + 1);
  if (UNANALYSABLE_EXECUTABLES.has(base)) return `\`${base}\` runs other commands and is not analysed`;
  const flags = new Set<string>();
  for (const word of words.slice(index + 1)) {
    for (const flag of flagsOf(word.text)) flags.add(flag);
  }
  return { executable, flags: [...flags].sort() };
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
  if (arg.startsWith("--")) return [arg.split("=", 1)[0] as string];
  return [...arg.slice(1)].map((ch) => `-${ch}`);
}

export function sameSignature(a: CommandSignature, b: CommandSignature): boolean {
  return (
    a.executable === b.executable &&
    a.flags.length === b.flags.length &&
    a.flags.every((flag, i) => flag === b.flags[i])
  );
}

function uniqueSignatures(signatures: CommandSignature[]): CommandSignature[] {
  const unique: CommandSignature[] = [];
  for (const sig of signatures) if (!unique.some((u) => sameSignature(u, sig))) unique.push(sig);
  return unique;
}

/** `git [-s]`, as shown in choice labels. */
export function formatSignature(sig: CommandSignature): string {
  return `${sig.executable} [${sig.flags.join(", ")}]`;
}
