/** How a tool call's arguments read at a glance: the one that names its target, then all of them as text. */

const TARGET_KEYS = ["path", "file_path", "command", "pattern", "query", "question", "url", "name"];

/** The argument that says what the call is about (a path, a command), cut to one short line. */
export function callTarget(args: Record<string, unknown>): string {
  for (const key of TARGET_KEYS) {
    const value = args[key];
    if (typeof value === "string" && value !== "") return oneLine(value);
  }
  return "";
}

/** Each argument as a key and a text value: strings as they are, anything else as JSON. */
export function argPairs(args: Record<string, unknown>): { k: string; v: string }[] {
  return Object.entries(args).map(([k, value]) => ({
    k,
    v: typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? String(value)),
  }));
}

/** Streaming arguments are JSON fragments; once they parse, show them as pairs. */
export function parsedArgs(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined || text === "") return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value))
      : undefined;
  } catch {
    return undefined;
  }
}

function oneLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  const cut = line.length > 120 ? `${line.slice(0, 120)}…` : line;
  return line.length < text.length && cut === line ? `${cut} …` : cut;
}
