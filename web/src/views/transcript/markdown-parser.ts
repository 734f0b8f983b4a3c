/**
 * The one markdown-it parser of the transcript: raw HTML off (so `<script>` or `<img onerror>`
 * in model text stays text), links only to safe targets, images off. No DOM here: markdown.ts
 * builds nodes from these tokens, markdown-stream.ts decides which of them a stream keeps.
 */
import MarkdownIt, { type Env } from "markdown-it";
import { isSafeHref } from "./safe-href.ts";

export const parser = new MarkdownIt({ html: false, linkify: true, typographer: false });
// A link markdown-it refuses stays literal text: `[x](javascript:…)` shows as written.
parser.validateLink = isSafeHref;
parser.disable("image");

export type Token = ReturnType<typeof parser.parse>[number];

/** What a parse leaves in its env: the reference definitions it met (`[x]: url`). */
export type ParseEnv = Env;

/** One top-level block (a paragraph, a list, a fence, …): its tokens, opening to closing. */
export type TopBlock = readonly Token[];

/** Splits the token stream where nesting returns to the top level. */
export function topLevelBlocks(tokens: readonly Token[]): TopBlock[] {
  const groups: Token[][] = [];
  let current: Token[] = [];
  let depth = 0;
  for (const token of tokens) {
    current.push(token);
    depth += token.nesting;
    if (depth === 0) {
      groups.push(current);
      current = [];
    }
  }
  if (current.length > 0) groups.push(current);
  return groups;
}
