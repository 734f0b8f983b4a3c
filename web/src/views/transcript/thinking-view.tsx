/**
 * A thinking block: open while it streams, collapsed once its message is complete (the user's
 * own toggle wins either way). Thinking is shown as text, never as Markdown.
 */
import { Show } from "solid-js";
import { LongText } from "./long-text-view.tsx";
import { useTranscript } from "./transcript-context.ts";

export function ThinkingView(props: { partKey: string; text: string; live: boolean }) {
  const { expansions } = useTranscript();
  const open = () => expansions.isOpen(props.partKey, props.live);
  return (
    <details
      class="tx-thinking"
      data-testid="thinking"
      data-live={props.live ? "true" : "false"}
      open={open()}
      onToggle={(e) => {
        if (e.currentTarget.open !== open()) expansions.set(props.partKey, e.currentTarget.open);
      }}
    >
      <summary>
        {props.live ? "Thinking…" : "Thinking"}
        <Show when={!open()}>
          <span class="tx-thinking-preview">{preview(props.text)}</span>
        </Show>
      </summary>
      <LongText partKey={`${props.partKey}:text`} text={props.text}>
        {(shown) => <div class="tx-thinking-text">{shown()}</div>}
      </LongText>
    </details>
  );
}

function preview(text: string): string {
  const line = text.trim().split("\n", 1)[0] ?? "";
  return line.length > 90 ? `${line.slice(0, 90)}…` : line;
}
