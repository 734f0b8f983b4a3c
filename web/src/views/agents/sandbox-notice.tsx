/**
 * Says, under the open agent's header, that this machine has no sandbox (bubblewrap missing or
 * refused), so its commands run unconfined: the header's "unsandboxed" alone would not say why.
 */
import { Show } from "solid-js";
import type { ControlRoom } from "../../state/control-room.ts";
import { sandboxUnavailableNotice } from "./sandbox-label.ts";

export function SandboxNotice(props: { room: ControlRoom; agentId: string }) {
  const notice = () => sandboxUnavailableNotice(props.room.snapshot(props.agentId)()?.sandbox);
  return (
    <Show when={notice()}>
      {(text) => (
        <p class="sandbox-unavailable" role="status" data-testid="sandbox-unavailable">
          {text()}
        </p>
      )}
    </Show>
  );
}
