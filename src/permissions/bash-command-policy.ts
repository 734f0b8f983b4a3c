/**
 * Which simple commands a signature grant may describe, and their subcommand (docs/permissions.md).
 * A command that runs another command, or code taken from its own arguments, is unanalysable:
 * no signature grant is offered for it and no signature grant can ever match it.
 */
import {
  type CommandFlags,
  FIND_ACTIONS,
  FLAGS_THAT_RUN_COMMANDS,
  RUNS_CODE_FROM_ARGUMENTS,
  RUNS_OTHER_COMMANDS,
  SUBCOMMAND_TOOLS,
  type SubcommandTool,
} from "./bash-command-lists.ts";

/** `optionWords`: the arguments without the subcommand words, for the flag set. */
export type CommandJudgement =
  | { ok: true; subcommand: string[]; optionWords: string[] }
  | { ok: false; reason: string };

/**
 * `base` is the executable's last path component; `args` the words after it (quotes removed).
 * The subcommand words are returned apart so the caller leaves them out of the flag set.
 */
export function judgeCommand(base: string, words: string[]): CommandJudgement {
  const name = canonicalName(base);
  // `tar xIf zstd a.tar`: tar reads a first word without a dash as a cluster of short options.
  const args = name === "tar" ? oldStyleTarOptions(words) : words;
  if (RUNS_OTHER_COMMANDS.has(name)) return refuse(`\`${base}\` runs other commands and is not analysed`);
  if (RUNS_CODE_FROM_ARGUMENTS.has(name)) {
    return refuse(`\`${base}\` can run code given in its arguments, so its arguments cannot be ignored`);
  }
  if (name === "find") {
    const action = args.find((arg) => FIND_ACTIONS.has(arg));
    if (action) return refuse(`\`find ${action}\` runs or deletes, so its arguments cannot be ignored`);
  }
  if (name === "printf" && flagRunningCommand(args, { short: ["v"] })) {
    return refuse("`printf -v` sets a shell variable (such as PATH) for the commands after it");
  }
  const commandFlag = flagRunningCommand(args, FLAGS_THAT_RUN_COMMANDS.get(name));
  if (commandFlag) return refuse(`\`${base} ${commandFlag}\` runs a command given as its value`);
  const tool = SUBCOMMAND_TOOLS.get(name);
  return tool ? judgeSubcommand(base, tool, args) : { ok: true, subcommand: [], optionWords: args };
}

function oldStyleTarOptions(words: string[]): string[] {
  const [first, ...rest] = words;
  return first !== undefined && !first.startsWith("-") ? [`-${first}`, ...rest] : words;
}

/** `Python3.12` → `python`, `gtimeout` → `timeout` (Homebrew's GNU tools), `sudo` → `sudo`. */
function canonicalName(base: string): string {
  const lower = base.toLowerCase();
  const unversioned = lower.replace(/-?[0-9][0-9.]*$/, "") || lower;
  for (const candidate of [lower, unversioned]) {
    if (isListed(candidate)) return candidate;
    if (candidate.startsWith("g") && isListed(candidate.slice(1))) return candidate.slice(1);
  }
  return lower;
}

function isListed(name: string): boolean {
  return (
    RUNS_OTHER_COMMANDS.has(name) ||
    RUNS_CODE_FROM_ARGUMENTS.has(name) ||
    FLAGS_THAT_RUN_COMMANDS.has(name) ||
    SUBCOMMAND_TOOLS.has(name) ||
    name === "find" ||
    name === "printf"
  );
}

function judgeSubcommand(base: string, tool: SubcommandTool, args: string[]): CommandJudgement {
  const index = leadingCount(args, tool.leadingFlags ?? []);
  const first = args[index];
  if (first === undefined) return { ok: true, subcommand: [], optionWords: args };
  if (first.startsWith("-")) {
    return refuse(`options before the \`${base}\` subcommand (such as \`${first}\`) are not analysed`);
  }
  if (tool.refused?.includes(first)) {
    return refuse(`\`${base} ${first}\` can run other commands or change what later commands run`);
  }
  const subcommand = [first];
  const second = args[index + 1];
  if (tool.nested?.includes(first) && second !== undefined) {
    if (second.startsWith("-"))
      return refuse(`options before the \`${base} ${first}\` target are not analysed`);
    subcommand.push(second);
  }
  if (subcommand.some((word) => /[*?[\]{}]/.test(word))) {
    return refuse(`a pattern in the \`${base}\` subcommand could expand to another subcommand`);
  }
  const rest = args.slice(index + subcommand.length);
  if (tool.noPositionals?.includes(first) && rest.some((arg) => !arg.startsWith("-"))) {
    return refuse(`\`${base} ${first}\` with a name downloads or builds that package and runs its code`);
  }
  const shortFlag = flagRunningCommand(rest, { short: tool.shortFlagsRunningCommands?.[first] ?? [] });
  if (shortFlag) return refuse(`\`${base} ${first} ${shortFlag}\` runs a command given as its value`);
  return { ok: true, subcommand, optionWords: [...args.slice(0, index), ...rest] };
}

/**
 * The first argument that uses one of `flags`, spelled as the list spells it. Long options may
 * be abbreviated (getopt_long and git accept any unambiguous prefix: `--use-compress=…`), so a
 * `--` option that is a prefix of a listed one counts too. Single-dash long options (Go) do not.
 */
function flagRunningCommand(args: string[], flags: CommandFlags | undefined): string | undefined {
  if (!flags) return undefined;
  for (const arg of args) {
    const name = optionName(arg);
    const long = flags.long?.find((flag) =>
      flag.startsWith("--") && name.startsWith("--") && name.length > 2
        ? flag.startsWith(name)
        : flag === name,
    );
    if (long) return long;
    if (/^-[^-]/.test(arg)) {
      const short = flags.short?.find((letter) => arg.slice(1).includes(letter));
      if (short) return `-${short}`;
    }
  }
  return undefined;
}

/** How many of `args`, from the first, are in `flags`. */
function leadingCount(args: string[], flags: string[]): number {
  const firstOther = args.findIndex((arg) => !flags.includes(arg));
  return firstOther === -1 ? args.length : firstOther;
}

/** An option word without its `=value`: `--file=x` is `--file`. */
export function optionName(arg: string): string {
  const equals = arg.indexOf("=");
  return equals === -1 ? arg : arg.slice(0, equals);
}

function refuse(reason: string): CommandJudgement {
  return { ok: false, reason };
}
