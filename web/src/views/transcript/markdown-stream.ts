/**
 * Markdown of a reply that is still streaming, parsed only from its last finished block on, so
 * a frame's work does not grow with the reply. The text is cut after a top-level block once no
 * continuation can change anything before the cut; the finished part is drawn once and kept,
 * only the tail is parsed and drawn again. Drawing is the caller's (`draw`): DOM nodes in the
 * page, HTML strings in the tests, which compare every step with a parse of the whole text.
 *
 * The cut (`finishedBlocksEnd`) is right after a blank line that is complete (its newline has
 * arrived) and directly follows a top-level paragraph, heading, rule, table, blockquote or
 * fence. In markdown-it none of those continues past a blank line at the top level, and every
 * block rule decides where a block ends from lines before the line after the block's
 * terminator, so the blocks before the cut are the same for any text that follows, and the
 * text after it parses as a document of its own. Not after a list or an indented code block:
 * both continue past blank lines (a later item makes the whole list loose). An open fence runs
 * to the end, so no blank line follows it. Reference definitions (`[x]: url`) relink text
 * anywhere before them, so once a parse meets one the stream parses the whole text from then
 * on; a carriage return (which markdown-it reads as a line break) does the same.
 */
import { type ParseEnv, parser, type Token, type TopBlock, topLevelBlocks } from "./markdown-parser.ts";

/** Where the finished blocks of `text` end: how many of `blocks` they are, and their length. */
export interface Cut {
  blocks: number;
  end: number;
}

/**
 * Where `text` (just parsed into `blocks`, leaving `env`) may be cut; "whole" when no cut can
 * be vouched for, then or later.
 */
export type BoundaryRule = (
  text: string,
  blocks: readonly TopBlock[],
  env: ParseEnv,
) => Cut | "whole" | undefined;

/** Blocks that end at a blank line at the top level and are never changed by what follows. */
const SETTLED = new Set(["paragraph_open", "heading_open", "hr", "table_open", "blockquote_open", "fence"]);
const BLANK = /^[ \t]*$/;

export const finishedBlocksEnd: BoundaryRule = (text, blocks, env) => {
  if (env.references !== undefined && Object.keys(env.references).length > 0) return "whole";
  if (text.includes("\r")) return "whole";
  const starts = lineStarts(text);
  for (let k = blocks.length - 1; k >= 0; k--) {
    const first = blocks[k]?.[0];
    if (first?.map == null || !SETTLED.has(first.type)) continue;
    const blank = first.map[1];
    const after = starts[blank + 1];
    const at = starts[blank];
    // The line right after the block is blank and its newline is there.
    if (at === undefined || after === undefined || !BLANK.test(text.slice(at, after - 1))) continue;
    return { blocks: k + 1, end: after };
  }
  return undefined;
};

/** What to change in the drawing for a new text. */
export interface StreamStep<P> {
  /** Drop everything drawn so far first (the whole text is drawn again). */
  reset: boolean;
  /** Blocks that just finished: drawn after the earlier finished ones, never redrawn. */
  finished: P | undefined;
  /** The rest of the text: replaces the previous tail. */
  tail: P;
}

export interface MarkdownStream<P> {
  /** Takes the whole text so far (normally the previous text with more appended). */
  update(text: string): StreamStep<P>;
}

export function createMarkdownStream<P>(
  draw: (tokens: readonly Token[]) => P,
  boundary: BoundaryRule = finishedBlocksEnd,
): MarkdownStream<P> {
  /** The text whose blocks are finished and drawn. */
  let done = "";
  /** Set for good once cutting cannot be vouched for (a reference definition, a `\r`). */
  let whole = false;
  return {
    update(text) {
      if (whole) return drawWhole(text);
      const reset = !text.startsWith(done);
      if (reset) done = "";
      const rest = text.slice(done.length);
      const env: ParseEnv = {};
      const tokens = parser.parse(rest, env);
      const blocks = topLevelBlocks(tokens);
      const cut = boundary(rest, blocks, env);
      if (cut === "whole") return drawWhole(text);
      if (cut === undefined) return { reset, finished: undefined, tail: draw(tokens) };
      done += rest.slice(0, cut.end);
      return {
        reset,
        finished: draw(blocks.slice(0, cut.blocks).flat()),
        tail: draw(blocks.slice(cut.blocks).flat()),
      };
    },
  };

  function drawWhole(text: string): StreamStep<P> {
    whole = true;
    done = "";
    return { reset: true, finished: undefined, tail: draw(parser.parse(text, {})) };
  }
}

/** The offset of each line's start, plus one past the text's end after a final newline. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) starts.push(at + 1);
  return starts;
}
