/**
 * Long text (tool output, file contents) shown as text, its first lines only until the user
 * asks for all of it: a 2,000-line read stays one cheap row in the transcript.
 */
import { createMemo, Show } from "solid-js";
import { useTranscript } from "./transcript-context.ts";
import { headLines } from "./truncation.ts";

const SHOWN_LINES = 200;

export function ClippedText(props: { partKey: string; text: string; class?: string; testId?: string }) {
  const { expansions } = useTranscript();
  const all = () => expansions.isOpen(props.partKey, false);
  const head = createMemo(() => headLines(props.text, SHOWN_LINES));
  return (
    <div class="tx-clipped">
      <pre class={props.class} data-testid={props.testId}>
        {all() ? props.text : head().text}
      </pre>
      <Show when={head().hidden > 0}>
        <button type="button" class="link" onClick={() => expansions.set(props.partKey, !all())}>
          {all() ? "Show less" : `Show ${head().hidden} more lines`}
        </button>
      </Show>
    </div>
  );
}
