/** A `diff` descriptor: the file, then each hunk with old/new line numbers and +/- lines coloured. */
import { createMemo, For, Show } from "solid-js";
import { countChangedLines } from "../../../../src/support/changed-lines.ts";
import type { Hunk } from "../../../../src/types/render.ts";
import { useTranscript } from "./transcript-context.ts";

/** A huge diff shows its first lines until the user asks for the rest. */
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
  const drawn = createMemo(() => budgeted(props.hunks, all() ? Number.POSITIVE_INFINITY : SHOWN_LINES));
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
      <Show when={drawn().hidden > 0 || all()}>
        <button type="button" class="link" onClick={() => expansions.set(props.partKey, !all())}>
          {all() ? "Show less" : `Show ${drawn().hidden} more lines`}
        </button>
      </Show>
    </div>
  );
}

function budgeted(
  hunks: readonly Hunk[],
  budget: number,
): { hunks: { hunk: Hunk; lines: DiffLine[] }[]; hidden: number } {
  const drawn: { hunk: Hunk; lines: DiffLine[] }[] = [];
  let left = budget;
  let hidden = 0;
  for (const hunk of hunks) {
    if (left <= 0) {
      hidden += hunk.lines.length;
      continue;
    }
    const lines = numbered(hunk);
    drawn.push({ hunk, lines: lines.slice(0, left) });
    hidden += Math.max(0, lines.length - left);
    left -= lines.length;
  }
  return { hunks: drawn, hidden };
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
