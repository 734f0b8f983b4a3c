/** Flag parsing shared by `shard agent` and `shard run`. Bad flags are exit code 2. */
import { type ParseArgsConfig, parseArgs } from "node:util";
import { describeError } from "../support/describe-error.ts";
import { terminalLine } from "../terminal/terminal-text.ts";

export const AGENT_FLAG_OPTIONS = {
  cwd: { type: "string" },
  model: { type: "string" },
  mode: { type: "string" },
  session: { type: "string" },
  tools: { type: "string" },
  "system-prompt-file": { type: "string" },
  sandbox: { type: "string" },
  "sandbox-policy": { type: "string" },
  "allow-host": { type: "string", multiple: true },
  "mcp-config": { type: "string" },
  "budget-usd": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Bad command-line input: printed as one line plus a pointer to the help, exit code 2. */
export class UsageError extends Error {}

export const USAGE_EXIT_CODE = 2;

/**
 * Prints a usage error as one line and where to read more — never the whole help, which
 * would bury the one line that matters. `command` is "" for the top-level `shard`.
 */
export function reportUsageError(command: string, message: string): number {
  const name = command === "" ? "shard" : `shard ${command}`;
  const first = message.split("\n")[0] ?? message;
  process.stderr.write(`${name}: ${terminalLine(first)}\nsee \`${name} --help\`\n`);
  return USAGE_EXIT_CODE;
}

export function parseFlags<O extends NonNullable<ParseArgsConfig["options"]>>(
  argv: string[],
  options: O,
  allowPositionals: boolean,
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (err) {
    throw new UsageError(describeError(err));
  }
}

/** `--budget-usd`: a plain amount of dollars, 0 or more (docs/usage.md). */
export function budgetFrom(text: string, flag = "budget-usd"): number {
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value) || value < 0)
    throw new UsageError(`--${flag}: "${text}" is not an amount of US dollars (e.g. 5 or 0.50)`);
  return value;
}
