/** Errors the daemon or an agent reported, newest last; each can be dismissed. */
import { For } from "solid-js";
import type { ControlRoom } from "../../state/control-room.ts";

export function Notices(props: { room: ControlRoom }) {
  return (
    <div class="notices" role="status" aria-live="polite">
      <For each={props.room.notices()}>
        {(notice) => (
          <div class="notice" data-testid="notice">
            <span>{notice.text}</span>
            <button
              type="button"
              class="link"
              aria-label="dismiss"
              onClick={() => props.room.dismissNotice(notice.id)}
            >
              ×
            </button>
          </div>
        )}
      </For>
    </div>
  );
}
