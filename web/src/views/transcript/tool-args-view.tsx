/**
 * A tool call's arguments as key/value rows, each value cut like any long text (clipped-text.tsx):
 * a `write` of 2 MB or a `bash` command of 1 MB shows its start and "Show all", never all of
 * itself at once.
 */
import { For } from "solid-js";
import { ClippedText } from "./clipped-text.tsx";
import { argPairs } from "./tool-args.ts";

export function ToolArgsView(props: { partKey: string; args: Record<string, unknown> }) {
  return (
    <dl class="tx-kv" data-testid="tool-args">
      <For each={argPairs(props.args)}>
        {(pair) => (
          <>
            <dt>{pair.k}</dt>
            <dd>
              <ClippedText partKey={`${props.partKey}:${pair.k}`} text={pair.v} class="tx-kv-text" />
            </dd>
          </>
        )}
      </For>
    </dl>
  );
}
