/** A `diff` descriptor: the file, then each hunk with old/new line numbers and +/- lines coloured. */
import { createMemo, For, Show } from "solid-js";
import { countChangedLines } from "../../../../src/support/changed-lines.ts";
import type { Hunk } from "../../../../src/types/render.ts";
import { HEAD_CHARS, LINE_CHARS, moreLabel } from "./long-text.ts";
import { useTranscript } from "./transcript-context.ts";

/**
 * A huge diff shows its first lines until the user asks for the rest, with the same bounds on
 * characters as any long text (long-text.ts): a 2 MB line (an `edit` of a minified file) is
 * cut to its start.
 */
const SHOWN_LINES = 400;

interface DiffLine {
  kind: "add" | "del" | "ctx" | "meta";
  text: string;
  oldNo?: number;
  newNo?: number;
}

export function DiffView(props: { partKey: string; path: string; hunks: readonly Hunk[] }) {
  const { expansions } = useTranscript();
  const all = () => expansions.isOpen(props.partKey, false);
  const counts = createMemo(() => countChangedLines(props.hunks));
  const drawn = createMemo(() =>
    all() ? budgeted(props.hunks, UNBOUNDED) : budgeted(props.hunks, FIRST_VIEW),
  );
  return (
    <div class="tx-diff" data-testid="descriptor-diff">
      <div class="tx-file-head">
        <span class="tx-path" data-testid="diff-path">
          {props.path}
        </span>
        <span class="tx-diff-counts">
          <span class="tx-add-count">+{counts().added}</span>{" "}
          <span class="tx-del-count">-{counts().removed}</span>
        </span>
      </div>
      <For each={drawn().hunks}>
        {({ hunk, lines }) => (
          <div class="tx-hunk">
            <div class="tx-hunk-head">
              @@ -{hunk.old_start},{hunk.old_lines} +{hunk.new_start},{hunk.new_lines} @@
            </div>
            <For each={lines}>
              {(line) => (
                <div class={`tx-diff-line tx-${line.kind}`} data-kind={line.kind}>
                  <span class="tx-ln">{line.oldNo ?? ""}</span>
                  <span class="tx-ln">{line.newNo ?? ""}</span>
                  <span class="tx-diff-text">{line.text}</span>
                </div>
              )}
            </For>
          </div>
        )}
      </For>
      <Show when={drawn().hidden > 0 || drawn().hiddenChars > 0 || all()}>
        <button
          type="button"
          class="link tx-more"
          data-testid="show-all"
          onClick={() => expansions.set(props.partKey, !all())}
        >
          {all() ? "Show less" : moreLabel(drawn().hidden, drawn().hiddenChars)}
        </button>
      </Show>
    </div>
  );
}

interface Budget {
  lines: number;
  chars: number;
  lineChars: number;
}

const FIRST_VIEW: Budget = { lines: SHOWN_LINES, chars: HEAD_CHARS, lineChars: LINE_CHARS };
const UNBOUNDED: Budget = {
  lines: Number.POSITIVE_INFINITY,
  chars: Number.POSITIVE_INFINITY,
  lineChars: Number.POSITIVE_INFINITY,
};

interface Drawn {
  hunks: { hunk: Hunk; lines: DiffLine[] }[];
  /** Lines not drawn at all. */
  hidden: number;
  /** Characters not drawn: of lines cut short, and of lines not drawn. */
  hiddenChars: number;
}

function budgeted(hunks: readonly Hunk[], budget: Budget): Drawn {
  const drawn: Drawn["hunks"] = [];
  let lines = budget.lines;
  let chars = budget.chars;
  let hidden = 0;
  let hiddenChars = 0;
  for (const hunk of hunks) {
    const kept: DiffLine[] = [];
    for (const line of numbered(hunk)) {
      if (lines <= 0 || chars <= 0) {
        hidden++;
        hiddenChars += line.text.length;
        continue;
      }
      const room = Math.min(budget.lineChars, chars);
      if (line.text.length > room) {
        kept.push({ ...line, text: `${line.text.slice(0, room)}…` });
        hiddenChars += line.text.length - room;
        chars -= room;
      } else {
        kept.push(line);
        chars -= line.text.length;
      }
      lines--;
    }
    if (kept.length > 0) drawn.push({ hunk, lines: kept });
  }
  return { hunks: drawn, hidden, hiddenChars };
}

function numbered(hunk: Hunk): DiffLine[] {
  let oldNo = hunk.old_start;
  let newNo = hunk.new_start;
  return hunk.lines.map((raw): DiffLine => {
    const mark = raw[0];
    if (mark === "+") return { kind: "add", text: raw, newNo: newNo++ };
    if (mark === "-") return { kind: "del", text: raw, oldNo: oldNo++ };
    if (mark === "\\") return { kind: "meta", text: raw };
    return { kind: "ctx", text: raw, oldNo: oldNo++, newNo: newNo++ };
  });
}
