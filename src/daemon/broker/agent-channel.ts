/**
 * The broker's view of one agent (docs/architecture.md §5.3): its `AgentSnapshot` (fed only through
 * `applyEvent`), the daemon's per-agent `seq` that stays monotonic across runtime generations
 * (a runtime's own `seq` restarts at 0), and the attached clients with their roles.
 */
import {
  type AgentSnapshot,
  emptySnapshot,
  snapshotFromSync,
  syncFromSnapshot,
} from "../../snapshot/agent-snapshot.ts";
import { applyEvent } from "../../snapshot/apply-event.ts";
import type { SyncEvent } from "../../types/agent-events.ts";
import type { AgentEvent, UnsequencedAgentEvent } from "../../types/catalog.ts";
import type { AttachRole, RequestKind } from "../../types/orchestrator.ts";
import type { RuntimeReady } from "../registry/runtime-process.ts";
import type { Activity } from "./activity.ts";
import type { ClientConnection } from "./client-connection.ts";
import { EncodedMessage } from "./encoded-message.ts";
import type { RequestArbiter } from "./request-arbiter.ts";
import { RoutedLines } from "./routed-line.ts";

/** Every agent event carries the routing `agent_id` on a daemon connection except the connection-scoped hello. */
export type TaggableEvent = Exclude<UnsequencedAgentEvent, { type: "hello" }>;
/** What a runtime sends after start-up (hello and sync belong to it). */
export type RuntimeEvent = Exclude<AgentEvent, { type: "hello" | "sync" }>;

export interface Attachment {
  client: ClientConnection;
  role: AttachRole;
  /** The request kinds it answers (an interactive attachment's `answers`; none for an observer). */
  answers: ReadonlySet<RequestKind>;
}

/** The kind of request a pending request is. */
export function requestKind(request: { type: "permission_request" | "ui_request" }): RequestKind {
  return request.type === "permission_request" ? "permission" : "ui";
}

export class AgentChannel {
  snapshot: AgentSnapshot = emptySnapshot();
  readonly attachments = new Map<string, Attachment>();
  /** Clients of an ancestor that were shown a request of this agent, by request id. */
  readonly delegates = new Map<string, Map<string, ClientConnection>>();
  /**
   * Interactive attaches still on their way in (their runtime starting): a request asked
   * meanwhile waits for them instead of taking the headless path (a resumed question).
   */
  readonly joining = new Set<string>();
  /** The sanitized overview last broadcast as `agent_activity`. */
  activity: Activity = { phase: "idle" };
  /** Whether any generation has reached readiness since the daemon started. */
  hasRuntimeState = false;
  private seq = 0;
  private readonly routed: RoutedLines;

  constructor(
    readonly agentId: string,
    readonly requests: RequestArbiter,
  ) {
    this.routed = new RoutedLines(agentId);
  }

  /**
   * A new generation is authoritative: its sync replaces the snapshot, keeping the daemon's
   * `seq`, and `capabilities` come from the runtime's own hello (docs/protocol.md §7).
   */
  replaceFromRuntime(epoch: number, ready: RuntimeReady): void {
    this.snapshot = snapshotFromSync({
      ...ready.sync,
      seq: this.seq,
      runtime_epoch: epoch,
      capabilities: ready.hello.capabilities,
    });
    this.hasRuntimeState = true;
  }

  /**
   * The generation ended. Its conversation is dropped: no client sees this snapshot's window
   * again (attach and activation restore a runtime first, whose sync replaces the snapshot), so
   * a stopped agent keeps only what `agent.list` shows (status, model, mode, usage) — the
   * daemon's memory does not grow with the sessions of its stopped agents.
   */
  runtimeEnded(): void {
    const { streaming_message: _streaming, turn_id: _turn, tool_calls: _calls, ...kept } = this.snapshot;
    this.snapshot = { ...kept, live_window: { messages: [] } };
  }

  /** Stamps the daemon `seq`, folds the event into the snapshot and returns it tagged for clients. */
  apply(event: TaggableEvent): AgentEvent {
    this.seq += 1;
    const stamped: AgentEvent = { ...event, seq: this.seq, agent_id: this.agentId };
    this.snapshot = applyEvent(this.snapshot, stamped);
    return stamped;
  }

  /** The `sync` an attaching client gets: the snapshot now, so every later event has a larger seq. */
  sync(): SyncEvent {
    return { ...syncFromSnapshot(this.snapshot), agent_id: this.agentId };
  }

  /**
   * A runtime's checked event (`line` is the text it came as): stamped and folded like `apply`,
   * and sent on as that line with the daemon's routing spliced in, re-encoded only when the line
   * is not in our encoder's shape (./routed-line.ts).
   */
  forward(event: RuntimeEvent, line: string): AgentEvent {
    this.seq += 1;
    const routed = this.attachments.size > 0 ? this.routed.splice(line, event, this.seq) : undefined;
    // The event was parsed for the daemon alone: stamping it in place copies nothing.
    event.seq = this.seq;
    event.agent_id = this.agentId;
    this.snapshot = applyEvent(this.snapshot, event);
    if (this.attachments.size > 0) this.sendToAttached(routed ?? EncodedMessage.of(event));
    return event;
  }

  fanOut(event: AgentEvent): void {
    if (this.attachments.size > 0) this.sendToAttached(EncodedMessage.of(event));
  }

  private sendToAttached(encoded: EncodedMessage): void {
    for (const a of this.attachments.values()) a.client.sendEncoded(encoded);
  }

  /** Whether an attached client answers requests of this kind. */
  hasResponder(kind: RequestKind): boolean {
    for (const a of this.attachments.values()) if (a.answers.has(kind)) return true;
    return false;
  }
}
