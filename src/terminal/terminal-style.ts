/**
 * Colour for `shard run` and `shard attach` on a terminal. Off on a pipe or file, off when
 * NO_COLOR is set (no-color.org), and on when FORCE_COLOR is set to anything but "0", even on a
 * pipe. Only the marks Shard prints are coloured; untrusted text is escaped before it is wrapped.
 */

export interface TerminalStyle {
  readonly colour: boolean;
  ok(text: string): string;
  fail(text: string): string;
  warn(text: string): string;
  dim(text: string): string;
}

export function colourWanted(isTTY: boolean, env: Record<string, string | undefined>): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0";
  return isTTY;
}

const sgr = (code: string) => (text: string) => `\u001b[${code}m${text}\u001b[0m`;
const plain = (text: string) => text;

export function terminalStyle(colour: boolean): TerminalStyle {
  return colour
    ? { colour, ok: sgr("32"), fail: sgr("31"), warn: sgr("33"), dim: sgr("2") }
    : { colour, ok: plain, fail: plain, warn: plain, dim: plain };
}

export const PLAIN_STYLE = terminalStyle(false);
