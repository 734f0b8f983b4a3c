/**
 * Scrubs a server's secrets (src/mcp/mcp-config.ts `secrets`) from text that leaves the MCP
 * client: error messages, a server's stderr, tool results. Short values are left alone: "1" or
 * "on" would blank out half of any text and protect nothing.
 */
const MIN_SECRET_CHARS = 4;

export function redactor(secrets: readonly string[]): (text: string) => string {
  const values = [...new Set(secrets.filter((s) => s.length >= MIN_SECRET_CHARS))].sort(
    (a, b) => b.length - a.length,
  );
  if (values.length === 0) return (text) => text;
  return (text) => values.reduce((out, secret) => out.replaceAll(secret, "[redacted]"), text);
}
