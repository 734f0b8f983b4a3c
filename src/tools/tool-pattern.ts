/**
 * A mode's allowed tools (frontmatter `tools`) name tools exactly or by a pattern where `*`
 * stands for any characters: `mcp__*` (every MCP tool), `mcp__github__*` (one server's).
 */
export function toolAllowed(patterns: readonly string[], name: string): boolean {
  return patterns.some((pattern) =>
    pattern.includes("*") ? globRegExp(pattern).test(name) : pattern === name,
  );
}

function globRegExp(pattern: string): RegExp {
  const escaped = pattern.split("*").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join(".*")}$`);
}
