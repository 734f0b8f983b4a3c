/**
 * Untrusted text (model output, tool errors, config values) made safe for a terminal: a raw
 * ESC can move the cursor, rewrite earlier lines or set the window title, and bidi overrides
 * can make text read differently from what it is. Such characters are shown as visible
 * escapes (`\x1b`, `\u202e`) instead of being interpreted.
 */

/**
 * C0 controls (tab and newline are handled by the callers), DEL, C1 controls (U+009B is a
 * one-character CSI), and the bidi embedding, override, isolate and mark characters.
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
const UNSAFE_OR_LINE_BREAK = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

function visible(char: string): string {
  const code = char.charCodeAt(0);
  if (char === "\n") return "\\n";
  if (char === "\t") return "\\t";
  if (char === "\r") return "\\r";
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** For multi-line text (the answer on a terminal): keeps newlines and tabs, escapes the rest. */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, visible);
}

/** For one status line: also escapes newlines and tabs, so the value cannot start a fake line. */
export function terminalLine(text: string): string {
  return text.replace(UNSAFE_OR_LINE_BREAK, visible);
}
