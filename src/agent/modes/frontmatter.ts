/**
 * Minimal frontmatter for mode and skill files: `---` fenced `key: value` lines; a value in
 * `[a, b]` form or with commas is a list. Deliberately tiny — not a YAML parser.
 */
export interface Frontmatter {
  fields: Record<string, string>;
  body: string;
}

export function parseFrontmatter(text: string): Frontmatter {
  const normalized = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  if (!normalized.startsWith("---\n")) return { fields: {}, body: normalized.trim() };
  const end = normalized.indexOf("\n---", 4);
  if (end === -1) return { fields: {}, body: normalized.trim() };
  const fields: Record<string, string> = {};
  for (const line of normalized.slice(4, end).split("\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim();
    let value = line.slice(colon + 1).trim();
    if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) {
      value = value.slice(1, -1);
    }
    fields[key] = value;
  }
  const afterFence = normalized.indexOf("\n", end + 4);
  return { fields, body: afterFence === -1 ? "" : normalized.slice(afterFence + 1).trim() };
}

export function parseList(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const inner = value.trim().replace(/^\[/, "").replace(/\]$/, "");
  return inner
    .split(",")
    .map((s) => s.trim().replace(/^["']|["']$/g, ""))
    .filter((s) => s.length > 0);
}
