/** The line over a dialog that a subagent's request opened in its parent's view: who asks. */
import { Show } from "solid-js";

export function AskedBy(props: { from: string | undefined }) {
  return (
    <Show when={props.from}>
      {(from) => (
        <p class="dialog-from muted" data-testid="dialog-from">
          Asked by subagent {from()}
        </p>
      )}
    </Show>
  );
}
