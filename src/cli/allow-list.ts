/**
 * `--allow TOOL[,TOOL]` (repeatable): the tools whose permission requests `shard run` allows.
 * Names are checked, so a typo or a prompt that landed in the option's value is a usage error
 * instead of a silent deny (or a prompt quietly lost).
 */
import { UsageError } from "./flags.ts";

/** The names in the option's values; throws UsageError when a value is not a tool list. */
export function parseAllowList(values: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const value of values) {
    const parts = value
      .split(",")
      .map((p) => p.trim())
      .filter((p) => p !== "");
    if (parts.length === 0) throw new UsageError("--allow needs a tool name, e.g. --allow bash,edit");
    for (const part of parts) {
      if (/\s/.test(part))
        throw new UsageError(
          `--allow takes tool names separated by commas, not ${JSON.stringify(value)}; the prompt goes last: shard run --allow bash "prompt"`,
        );
      names.add(part);
    }
  }
  return names;
}

/** The usage-error message when `names` holds a tool this run does not have, naming the valid ones. */
export function unknownAllowed(names: ReadonlySet<string>, tools: readonly string[]): string | undefined {
  // An MCP server's tools are known only once it starts, at the first turn (docs/mcp.md).
  const unknown = [...names].filter((n) => !tools.includes(n) && !n.startsWith("mcp__"));
  if (unknown.length === 0) return undefined;
  const s = unknown.length > 1 ? "s" : "";
  return `--allow: unknown tool${s} ${unknown.join(", ")}. Tools: ${tools.join(", ")}`;
}
