/**
 * Says a new permission or UI request aloud: an assertive live region, present (empty) before
 * any request, so a screen reader speaks each one as it arrives even while focus is elsewhere
 * (typing in the composer). The dialogs themselves carry the detail.
 */
import { createEffect, createSignal, on } from "solid-js";
import type { PendingRequest } from "../../../../src/snapshot/agent-snapshot.ts";

export function RequestAnnouncer(props: {
  pending: readonly PendingRequest[];
  from: (request: PendingRequest) => string | undefined;
}) {
  const [text, setText] = createSignal("");
  const heard = new Set<string>();
  createEffect(
    on(
      () => props.pending,
      (pending) => {
        const open = new Set(pending.map((r) => r.request_id));
        for (const id of heard) if (!open.has(id)) heard.delete(id);
        const fresh = pending.filter((r) => !heard.has(r.request_id));
        for (const r of fresh) heard.add(r.request_id);
        const newest = fresh[fresh.length - 1];
        if (newest !== undefined) setText(announcement(newest, props.from(newest), pending.length));
      },
    ),
  );
  return (
    <div class="sr-only" role="alert" aria-live="assertive" data-testid="request-announcer">
      {text()}
    </div>
  );
}

function announcement(request: PendingRequest, from: string | undefined, open: number): string {
  const asker = from === undefined ? "" : ` from ${from}`;
  const waiting = open > 1 ? ` ${open} requests are waiting.` : "";
  if (request.type === "permission_request")
    return `Permission needed${asker}: ${request.tool_name}. ${request.prompt}${waiting}`;
  const what = request.kind === "notify" ? "Notice" : "Question";
  const body = [request.title, request.message].filter((t) => t !== undefined && t !== "").join(": ");
  return `${what}${asker}${body === "" ? "" : `: ${body}`}${waiting}`;
}
