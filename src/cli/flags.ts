/** Flag parsing shared by `shard agent` and `shard run`. Bad flags are exit code 2. */
import { type ParseArgsConfig, parseArgs } from "node:util";

export const AGENT_FLAG_OPTIONS = {
  cwd: { type: "string" },
  model: { type: "string" },
  mode: { type: "string" },
  session: { type: "string" },
  tools: { type: "string" },
  "headless-policy": { type: "string" },
  "system-prompt-file": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

export const HEADLESS_POLICIES = ["deny", "allow_if_rule_matches", "queue"] as const;

export class UsageError extends Error {}

export function parseFlags<O extends NonNullable<ParseArgsConfig["options"]>>(
  argv: string[],
  options: O,
  allowPositionals: boolean,
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
