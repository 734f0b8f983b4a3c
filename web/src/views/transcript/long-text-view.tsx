/**
 * Text from the model or a tool, cut when long (long-text.ts): the first view, then on request
 * the whole text in lazily laid-out chunks. `children` draws the first view (Markdown for the
 * assistant, text otherwise) and is called once: it gets the shown text as an accessor, which
 * changes only when the shown text does (a reply growing past the cut leaves it as it is).
 */
import { type Accessor, createMemo, type JSX, Show } from "solid-js";
import { FullText } from "./full-text.tsx";
import { type ClippedText, clipText, moreLabel } from "./long-text.ts";
import { useTranscript } from "./transcript-context.ts";

export function LongText(props: {
  partKey: string;
  text: string;
  maxLines?: number;
  children: (shown: Accessor<string>) => JSX.Element;
}) {
  const { expansions } = useTranscript();
  const clip = createMemo(() => clipText(props.text, props.maxLines));
  const shown = createMemo(() => clip().text);
  const all = () => expansions.isOpen(props.partKey, false);
  const view = props.children(shown);
  return (
    <>
      <Show when={clip().cut && all()} fallback={view}>
        <FullText text={props.text} />
      </Show>
      <MoreButton clip={clip()} open={all()} toggle={() => expansions.set(props.partKey, !all())} />
    </>
  );
}

/** "Show 120 more lines", "Show all (1.9 MB more)", "Show less": nothing when nothing is cut. */
export function MoreButton(props: { clip: ClippedText; open: boolean; toggle: () => void }) {
  return (
    <Show when={props.clip.cut}>
      <button type="button" class="link tx-more" data-testid="show-all" onClick={() => props.toggle()}>
        {props.open ? "Show less" : moreLabel(props.clip.hiddenLines, props.clip.hiddenChars)}
      </button>
    </Show>
  );
}
