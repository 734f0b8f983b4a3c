/**
 * Long text (tool output, file contents) shown as text, its first lines only (and long lines
 * cut, long-text.ts) until the user asks for all of it: a 2,000-line read or a 2 MB line stays
 * one cheap row in the transcript, and all of it is laid out only as it scrolls into view.
 */
import { createMemo, type JSX, Show } from "solid-js";
import { FullText } from "./full-text.tsx";
import { clipText } from "./long-text.ts";
import { MoreButton } from "./long-text-view.tsx";
import { useTranscript } from "./transcript-context.ts";

const SHOWN_LINES = 200;

export function ClippedText(props: {
  partKey: string;
  text: string;
  class?: string;
  testId?: string;
  /** Drawn before the text, inside the same block (a command's "$ "). */
  prefix?: JSX.Element;
}) {
  const { expansions } = useTranscript();
  const all = () => expansions.isOpen(props.partKey, false);
  const clip = createMemo(() => clipText(props.text, SHOWN_LINES));
  return (
    <div class="tx-clipped">
      <pre class={props.class} data-testid={props.testId}>
        {props.prefix}
        <Show when={clip().cut && all()} fallback={clip().text}>
          <FullText text={props.text} />
        </Show>
      </pre>
      <MoreButton clip={clip()} open={all()} toggle={() => expansions.set(props.partKey, !all())} />
    </div>
  );
}
