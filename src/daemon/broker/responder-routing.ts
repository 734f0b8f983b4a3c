/**
 * Hierarchical routing of permission and UI requests (docs/protocol.md §5.3,
 * docs/architecture.md §5.4): a child agent with no interactive attachment of its own asks the
 * nearest ancestor that has one, keeping the child's `agent_id`. Observers never count as
 * responders, nor does an interactive client for a request kind it said it does not answer
 * (`agent.attach.answers`).
 */
import type { PendingRequest } from "../../snapshot/agent-snapshot.ts";
import type { RequestKind } from "../../types/orchestrator.ts";
import type { PermissionResolved, UiResolved } from "../../types/permissions.ts";
import { type AgentChannel, requestKind } from "./agent-channel.ts";
import type { ClientConnection } from "./client-connection.ts";

export interface Hierarchy {
  parentOf(agentId: string): string | undefined;
  channelOf(agentId: string): AgentChannel | undefined;
  agentIds(): Iterable<string>;
  /** Whether the agent has a runtime whose requests are still open (a dead one's died with it). */
  isLive(agentId: string): boolean;
}

/** The agent's own channel, or its nearest ancestor's, with an attachment that answers `kind`. */
export function responderChannel(
  hierarchy: Hierarchy,
  agentId: string,
  kind: RequestKind,
): AgentChannel | undefined {
  const seen = new Set<string>();
  for (let id: string | undefined = agentId; id !== undefined && !seen.has(id); id = hierarchy.parentOf(id)) {
    seen.add(id);
    const channel = hierarchy.channelOf(id);
    if (channel?.hasResponder(kind)) return channel;
  }
  return undefined;
}

/** `agentId` and every descendant, whose requests may route through it. */
export function selfAndDescendants(hierarchy: Hierarchy, agentId: string): string[] {
  const out: string[] = [];
  for (const id of hierarchy.agentIds()) {
    const seen = new Set<string>();
    for (let at: string | undefined = id; at !== undefined && !seen.has(at); at = hierarchy.parentOf(at)) {
      seen.add(at);
      if (at === agentId) {
        out.push(id);
        break;
      }
    }
  }
  return out;
}

/** A new request: fanned out already; also shown to the nearest responding ancestor's clients. */
export function routeRequest(hierarchy: Hierarchy, channel: AgentChannel, request: PendingRequest): void {
  const kind = requestKind(request);
  const target = responderChannel(hierarchy, channel.agentId, kind);
  if (target && target !== channel) delegate(channel, request, responders(target, kind));
  channel.requests.asked(request, target !== undefined || channel.joining.size > 0);
}

/** `*_resolved` also reaches every ancestor client the request was shown to. */
export function closeDelegated(channel: AgentChannel, event: PermissionResolved | UiResolved): void {
  const shown = channel.delegates.get(event.request_id);
  channel.delegates.delete(event.request_id);
  for (const client of shown?.values() ?? []) if (!channel.attachments.has(client.id)) client.send(event);
}

/**
 * An attachment of `agentId` came or went: the open requests of it and its descendants have a
 * responder again (timers stop) or none (the headless timeout runs), and an ancestor client that
 * joined is shown the child requests routed to it — delegation survives a reconnect.
 */
export function respondersChanged(hierarchy: Hierarchy, agentId: string, joined?: ClientConnection): void {
  for (const id of selfAndDescendants(hierarchy, agentId)) {
    const channel = hierarchy.channelOf(id);
    if (!channel || channel.snapshot.pending_requests.length === 0 || !hierarchy.isLive(id)) continue;
    for (const request of channel.snapshot.pending_requests) {
      const kind = requestKind(request);
      const target = responderChannel(hierarchy, id, kind);
      if (!target) {
        channel.requests.responderLeft([request]);
        continue;
      }
      channel.requests.responderArrived(request.request_id);
      const isResponder =
        joined !== undefined && target.attachments.get(joined.id)?.answers.has(kind) === true;
      if (joined && isResponder && id !== agentId && target.agentId === agentId)
        delegate(channel, { ...request, agent_id: id }, [joined]);
    }
  }
}

/** Shows a request to ancestor clients that are not attached to the agent itself. */
function delegate(channel: AgentChannel, request: PendingRequest, clients: ClientConnection[]): void {
  for (const client of clients) {
    if (channel.attachments.has(client.id)) continue;
    let shown = channel.delegates.get(request.request_id);
    if (!shown) {
      shown = new Map();
      channel.delegates.set(request.request_id, shown);
    }
    shown.set(client.id, client);
    client.send(request);
  }
}

function responders(channel: AgentChannel, kind: RequestKind): ClientConnection[] {
  return [...channel.attachments.values()].filter((a) => a.answers.has(kind)).map((a) => a.client);
}
