/**
 * Splits the "[sandbox] …" paragraph bash appends to a confined command that failed the way a
 * sandbox refusal fails (src/tools/bash.ts): the card shows it on its own, so it stays visible
 * however long the output above it is, and however much of that output is folded or cut.
 */
const NOTE = /\n\n(\[sandbox\] [^\n]+)$/;

export interface SandboxSplit {
  body: string;
  /** The explanation without its "[sandbox] " mark. */
  note?: string;
}

export function splitSandboxNote(text: string): SandboxSplit {
  const match = NOTE.exec(text.trimEnd());
  if (match?.[1] === undefined) return { body: text };
  return { body: text.trimEnd().slice(0, match.index), note: match[1].slice("[sandbox] ".length) };
}
