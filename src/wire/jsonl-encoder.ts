/**
 * JSONL encoder: one object per line. U+2028/U+2029 are legal in JSON strings but break
 * line-oriented readers in other languages, so they are always escaped.
 */
const SEPARATORS = /[\u2028\u2029]/g;

export function encodeJsonLine(message: unknown): string {
  const json = JSON.stringify(message);
  const safe =
    json.includes("\u2028") || json.includes("\u2029") ? json.replace(SEPARATORS, escapeSeparator) : json;
  return `${safe}\n`;
}

function escapeSeparator(ch: string): string {
  return ch === "\u2028" ? "\\u2028" : "\\u2029";
}
