/**
 * Frontmatter of mode and skill files: a `---` fenced YAML block (parsed with Bun.YAML) and the
 * markdown body after it. Broken YAML is reported, never guessed at; typed accessors read the
 * fields the catalogs use.
 */
import { describeError } from "../../support/describe-error.ts";
import { isRecord } from "../../support/is-record.ts";
export interface Frontmatter {
  fields: Record<string, unknown>;
  body: string;
  /** Set when the fenced block is not a YAML mapping; `fields` is then empty. */
  error?: string;
}

export function parseFrontmatter(text: string): Frontmatter {
  const normalized = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  if (!normalized.startsWith("---\n")) return { fields: {}, body: normalized.trim() };
  const end = normalized.indexOf("\n---", 3);
  if (end === -1) return { fields: {}, body: normalized.trim() };
  const afterFence = normalized.indexOf("\n", end + 4);
  const body = afterFence === -1 ? "" : normalized.slice(afterFence + 1).trim();
  const yaml = normalized.slice(4, end);
  let parsed: unknown;
  try {
    parsed = yaml.trim() === "" ? {} : Bun.YAML.parse(yaml);
  } catch (err) {
    return { fields: {}, body, error: `frontmatter is not valid YAML: ${describeError(err)}` };
  }
  if (!isRecord(parsed))
    return { fields: {}, body, error: "frontmatter must be a YAML mapping (key: value lines)" };
  return { fields: parsed, body };
}

/** A scalar field as text (`name: 42` reads as "42"); absent or a list/mapping → undefined. */
export function stringField(fields: Record<string, unknown>, key: string): string | undefined {
  const value = fields[key];
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

/** A YAML list, or a comma-separated string (`tools: read, grep`); empty → undefined. */
export function listField(fields: Record<string, unknown>, key: string): string[] | undefined {
  const value = fields[key];
  const items = Array.isArray(value) ? value.map(String) : typeof value === "string" ? value.split(",") : [];
  const names = items.map((s) => s.trim()).filter((s) => s.length > 0);
  return names.length > 0 ? names : undefined;
}

export function booleanField(fields: Record<string, unknown>, key: string): boolean {
  const value = fields[key];
  return value === true || value === "true";
}
