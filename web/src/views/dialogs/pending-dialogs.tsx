/**
 * The agent's open permission and UI requests, from its snapshot: a `*_resolved` from any client
 * removes them, so a dialog answered elsewhere closes here too.
 */
import { For, Match, Switch } from "solid-js";
import type { ControlRoom } from "../../state/control-room.ts";
import { PermissionDialog } from "./permission-dialog.tsx";
import { UiDialog } from "./ui-dialog.tsx";

export function PendingDialogs(props: { room: ControlRoom; agentId: string }) {
  const pending = () => props.room.snapshot(props.agentId)()?.pending_requests ?? [];
  return (
    <div class="dialogs">
      <For each={pending()}>
        {(request) => (
          <Switch>
            <Match when={request.type === "permission_request" ? request : undefined}>
              {(permission) => (
                <PermissionDialog room={props.room} agentId={props.agentId} request={permission()} />
              )}
            </Match>
            <Match when={request.type === "ui_request" ? request : undefined}>
              {(ui) => <UiDialog room={props.room} agentId={props.agentId} request={ui()} />}
            </Match>
          </Switch>
        )}
      </For>
    </div>
  );
}
