/**
 * Errors the daemon or an agent reported, newest last. Each shows one line, with anything longer
 * folded under Details, and its dismiss button first in its row so it is never pushed off
 * screen; the stack is capped in height (it scrolls) and sits under the top bar, clear of the
 * composer. Notices that are not lasting expire by themselves (control-room.ts).
 */
import { For, Show } from "solid-js";
import type { ControlRoom } from "../../state/control-room.ts";
import { noticeParts } from "./notice-parts.ts";

export function Notices(props: { room: ControlRoom }) {
  return (
    <div class="notices" role="status" aria-live="polite" data-testid="notices">
      <For each={props.room.notices()}>
        {(notice) => {
          const parts = noticeParts(notice.text);
          return (
            <div class="notice" data-testid="notice" data-lasting={notice.lasting ? "true" : "false"}>
              <div class="notice-head">
                <span class="notice-summary" data-testid="notice-summary">
                  {parts.summary}
                </span>
                <button
                  type="button"
                  class="notice-dismiss"
                  data-testid="notice-dismiss"
                  aria-label="dismiss"
                  onClick={() => props.room.dismissNotice(notice.id)}
                >
                  ×
                </button>
              </div>
              <Show when={parts.details}>
                {(details) => (
                  <details class="notice-details" data-testid="notice-details">
                    <summary>Details</summary>
                    <pre>{details()}</pre>
                  </details>
                )}
              </Show>
            </div>
          );
        }}
      </For>
    </div>
  );
}
