/**
 * Untrusted text (model output, tool errors, config values) made safe for a terminal: a raw
 * ESC can move the cursor, rewrite earlier lines or set the window title, and bidi overrides
 * can make text read differently from what it is. The characters and their visible form
 * (`\u001b`, `\u202e`) are the ones a permission prompt uses, so a user sees one convention.
 */
import { escapeForDisplay } from "../support/display-text.ts";

/** For multi-line text (the answer on a terminal): keeps newlines and tabs, escapes the rest. */
export function terminalText(text: string): string {
  return escapeForDisplay(text);
}

/** For one status line: also escapes newlines and tabs, so the value cannot start a fake line. */
export function terminalLine(text: string): string {
  return escapeForDisplay(text).replace(/[\t\n]/g, (c) => (c === "\n" ? "\\n" : "\\t"));
}
