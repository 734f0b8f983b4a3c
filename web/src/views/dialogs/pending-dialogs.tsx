/**
 * The agent's open permission and UI requests, from its snapshot, then its subagents' requests
 * routed to this page (each says which subagent asks and is answered for it): a `*_resolved`
 * from any client removes them, so a dialog answered elsewhere closes here too, and a line says
 * so. The oldest open request is the active one: the keys answer it, the rest wait their turn.
 */
import { createMemo, For, Match, Show, Switch } from "solid-js";
import type { PendingRequest } from "../../../../src/snapshot/agent-snapshot.ts";
import type { ControlRoom } from "../../state/control-room.ts";
import "./dialogs.css";
import { PermissionDialog } from "./permission-dialog.tsx";
import { RequestAnnouncer } from "./request-announcer.tsx";
import { createResolvedLog, type ResolvedEntry } from "./resolved-log.ts";
import { UiDialog } from "./ui-dialog.tsx";

export function PendingDialogs(props: { room: ControlRoom; agentId: string }) {
  const log = createResolvedLog(props.room);
  // <For> keeps a dialog by its item's identity: the items are the request objects themselves
  // (the snapshot keeps an unchanged request's object), so a publish never rebuilds a dialog —
  // its typed text, focus and "sending" state survive every frame of a busy agent.
  const delegated = createMemo(() =>
    props.room.delegated().filter((d) => isDescendant(props.room, d.agentId, props.agentId)),
  );
  const askers = createMemo(() => new Map(delegated().map((d) => [d.request.request_id, d.agentId])));
  const pending = createMemo((): PendingRequest[] => [
    ...(props.room.snapshot(props.agentId)()?.pending_requests ?? []),
    ...delegated().map((d) => d.request),
  ]);
  const resolved = () => log.entries().filter((e) => e.agentId === props.agentId);
  const activeId = () => pending()[0]?.request_id;
  const askerOf = (request: PendingRequest) => askers().get(request.request_id) ?? props.agentId;
  const from = (request: PendingRequest) => {
    const asker = askers().get(request.request_id);
    return asker === undefined ? undefined : subagentLabel(props.room, asker);
  };
  return (
    <div class="dialogs" data-testid="dialogs" classList={{ open: pending().length > 0 }}>
      <RequestAnnouncer pending={pending()} from={from} />
      <For each={resolved()}>
        {(entry) => (
          <p
            class="resolved-line"
            role="status"
            data-testid="resolved-line"
            data-request-id={entry.requestId}
          >
            <span>{resolvedText(entry)}</span>
            <button type="button" class="link" aria-label="dismiss" onClick={() => log.dismiss(entry.key)}>
              ×
            </button>
          </p>
        )}
      </For>
      <div class="dialog-stack">
        <For each={pending()}>
          {(request) => (
            <Switch>
              <Match when={request.type === "permission_request" ? request : undefined}>
                {(permission) => (
                  <PermissionDialog
                    room={props.room}
                    agentId={askerOf(request)}
                    from={from(request)}
                    request={permission()}
                    active={activeId() === request.request_id}
                    log={log}
                  />
                )}
              </Match>
              <Match when={request.type === "ui_request" ? request : undefined}>
                {(ui) => (
                  <UiDialog
                    room={props.room}
                    agentId={askerOf(request)}
                    from={from(request)}
                    request={ui()}
                    active={activeId() === request.request_id}
                    log={log}
                  />
                )}
              </Match>
            </Switch>
          )}
        </For>
        <Show when={pending().length > 1}>
          <p class="muted waiting-count" data-testid="dialogs-waiting">
            {pending().length - 1} more waiting after this one
          </p>
        </Show>
      </div>
    </div>
  );
}

function resolvedText(entry: ResolvedEntry): string {
  switch (entry.closedBy.kind) {
    case "other_browser":
      return `${entry.subject}: answered in another browser (${entry.closedBy.label}) — ${entry.outcome}`;
    case "other_client":
      return `${entry.subject}: answered from another client — ${entry.outcome}`;
    case "runtime":
      return `${entry.subject}: closed by the agent (${entry.closedBy.reason}) — ${entry.outcome}`;
    case "dismissed":
      return `${entry.subject}: closed without an answer (dismissed elsewhere, or the turn ended)`;
  }
}

/** Whether `agentId` is below `ancestorId` in the agent tree the page knows. */
function isDescendant(room: ControlRoom, agentId: string, ancestorId: string): boolean {
  const seen = new Set<string>();
  let current = room.agents[agentId]?.info.parent_agent_id;
  while (current !== undefined && !seen.has(current)) {
    if (current === ancestorId) return true;
    seen.add(current);
    current = room.agents[current]?.info.parent_agent_id;
  }
  return false;
}

function subagentLabel(room: ControlRoom, agentId: string): string {
  const info = room.agents[agentId]?.info;
  return info?.alias ?? info?.display_name ?? info?.name ?? agentId;
}
