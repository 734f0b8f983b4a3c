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
import type { AgentStatus } from "../../types/agent-state.ts";
import type { AgentEvent, UnsequencedAgentEvent } from "../../types/catalog.ts";
import type { AttachRole, RequestKind } from "../../types/orchestrator.ts";
import type { RunTaken } from "../../wire/jsonl-decoder.ts";
import type { RuntimeReady } from "../registry/runtime-process.ts";
import type { Activity } from "./activity.ts";
import type { ClientConnection } from "./client-connection.ts";
import { ClientReadRoutes } from "./client-read-routing.ts";
import { DeltaRunWriter } from "./delta-run.ts";
import { EncodedMessage } from "./encoded-message.ts";
import { PendingDeltas } from "./pending-deltas.ts";
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
  /** The snapshot up to the delta lines still pending (see `snapshot`). */
  private folded: AgentSnapshot = emptySnapshot();
  /** Delta lines forwarded unparsed, not yet in `folded` (./pending-deltas.ts). */
  private readonly pending = new PendingDeltas();
  readonly attachments = new Map<string, Attachment>();
  /** Clients of an ancestor that were shown a request of this agent, by request id. */
  readonly delegates = new Map<string, Map<string, ClientConnection>>();
  /**
   * Interactive attaches still on their way in (their runtime starting): a request asked
   * meanwhile waits for them instead of taking the headless path (a resumed question).
   */
  readonly joining = new Set<string>();
  /** Who serves the agent's `client_read_request`s and the reads open with it (./client-read-routing.ts). */
  readonly reads = new ClientReadRoutes();
  /** The sanitized overview last broadcast as `agent_activity`. */
  activity: Activity = { phase: "idle" };
  /** Whether any generation has reached readiness since the daemon started. */
  hasRuntimeState = false;
  private seq = 0;
  private readonly routed: RoutedLines;
  private readonly runs: DeltaRunWriter;
  /**
   * Deltas forwarded since the last message sent to the attached clients, spliced, waiting to
   * leave as one message (`flushRun`); their UTF-8 size, newlines included.
   */
  private run: string[] = [];
  private runBytes = 0;

  constructor(
    readonly agentId: string,
    readonly requests: RequestArbiter,
  ) {
    this.routed = new RoutedLines(agentId);
    this.runs = new DeltaRunWriter(agentId);
  }

  /** The agent's snapshot, every event forwarded so far folded in. */
  get snapshot(): AgentSnapshot {
    if (this.pending.size > 0) this.folded = this.pending.foldInto(this.folded);
    return this.folded;
  }

  /** The snapshot's status, without folding pending deltas (a delta never changes it). */
  get status(): AgentStatus {
    return this.folded.status;
  }

  /**
   * A new generation is authoritative: its sync replaces the snapshot, keeping the daemon's
   * `seq`, and `capabilities` come from the runtime's own hello (docs/protocol.md §7).
   */
  replaceFromRuntime(epoch: number, ready: RuntimeReady): void {
    this.flushRun();
    this.pending.clear();
    this.folded = snapshotFromSync({
      ...ready.sync,
      seq: this.seq,
      runtime_epoch: epoch,
      capabilities: ready.hello.capabilities,
    });
    this.hasRuntimeState = true;
  }

  /**
   * The running generation replaced its state (a `sync` after start-up): it becomes the
   * snapshot, keeping the daemon's `seq`, epoch and the capabilities of the generation's hello.
   */
  replaceState(sync: SyncEvent): void {
    this.flushRun();
    this.pending.clear();
    const { runtime_epoch, capabilities } = this.folded;
    this.folded = snapshotFromSync({
      ...sync,
      seq: this.seq,
      capabilities,
      ...(runtime_epoch !== undefined ? { runtime_epoch } : {}),
    });
  }

  /**
   * The generation ended. Its conversation is dropped: no client sees this snapshot's window
   * again (attach and activation restore a runtime first, whose sync replaces the snapshot), so
   * a stopped agent keeps only what `agent.list` shows (status, model, mode, usage) — the
   * daemon's memory does not grow with the sessions of its stopped agents.
   */
  runtimeEnded(): void {
    const { streaming_message: _streaming, turn_id: _turn, tool_calls: _calls, ...kept } = this.snapshot;
    this.folded = { ...kept, live_window: { messages: [] } };
  }

  /** Stamps the daemon `seq`, folds the event into the snapshot and returns it tagged for clients. */
  apply(event: TaggableEvent): AgentEvent {
    this.seq += 1;
    const stamped: AgentEvent = { ...event, seq: this.seq, agent_id: this.agentId };
    this.folded = applyEvent(this.snapshot, stamped);
    return stamped;
  }

  /** The `sync` an attaching client gets: the snapshot now, so every later event has a larger seq. */
  sync(): SyncEvent {
    this.flushRun();
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
    this.folded = applyEvent(this.settlePending(event), event);
    this.flushRun();
    if (this.attachments.size > 0) this.sendToAttached(routed ?? EncodedMessage.of(event));
    return event;
  }

  /**
   * A `message_delta` line the fast path took (src/wire/delta-line.ts: checked, in our encoder's
   * shape; `seqAt` is where its `,"seq":` starts, `ascii` whether its UTF-8 size is its length):
   * stamped like `forward`, sent on with the deltas next to it (`flushRun`), and folded into the
   * snapshot only when something reads it.
   */
  forwardDelta(line: string, seqAt: number, ascii: boolean): void {
    const seq = ++this.seq;
    if (this.attachments.size > 0) {
      const json = this.routed.spliceJson(line, seqAt, seq);
      this.run.push(json);
      this.runBytes += this.routed.splicedBytes(json, line, seqAt, ascii) + 1;
    }
    if (this.pending.push(line, seq)) this.folded = this.pending.foldInto(this.folded);
  }

  /**
   * A run of `message_delta` lines from `from` in a chunk's ASCII text (`bytes`, its bytes), all
   * of one activity phase (`thinking` or not): taken in place (./delta-run.ts), each stamped like
   * `forwardDelta`, sent on as one message after the deltas before them, folded when read.
   * Undefined when the line at `from` is not one.
   */
  forwardDeltaRun(text: string, from: number, bytes: Uint8Array, thinking: boolean): RunTaken | undefined {
    const run = this.runs.write(text, from, bytes, this.seq, thinking);
    if (run === undefined) return undefined;
    this.seq += run.lines;
    this.flushRun();
    if (this.attachments.size > 0) {
      // A client that cannot write the run at once holds its buffer, not a copy.
      const message = EncodedMessage.ofHeldBytes(run.bytes, run.buffer);
      this.sendToAttached(message);
      message.release();
    }
    run.buffer.release();
    // The runtime's own text of the lines: their routing is not what the snapshot folds.
    if (this.pending.push(text.slice(from, run.end), this.seq))
      this.folded = this.pending.foldInto(this.folded);
    return run;
  }

  /**
   * Sends the deltas forwarded since the last message as one (one string for the socket to
   * encode, not one per delta). Called before anything else reaches a client of this agent and
   * at the end of each chunk of runtime output, so the order every client sees is the order of
   * the events.
   */
  flushRun(): void {
    if (this.run.length === 0) return;
    const encoded = EncodedMessage.ofRun(this.run, this.runBytes);
    this.run = [];
    this.runBytes = 0;
    this.sendToAttached(encoded);
  }

  /**
   * The snapshot `event` applies to. The end of the streamed message (its `message_complete`, or
   * the turn's end) drops the streaming message the pending deltas build, so they are dropped
   * unfolded; anything else sees them folded.
   */
  private settlePending(event: AgentEvent): AgentSnapshot {
    if (this.pending.size === 0) return this.folded;
    const ends =
      event.type === "turn_end" ||
      (event.type === "message_complete" && event.message_id === this.pending.lastMessageId());
    if (!ends) return this.snapshot;
    this.pending.clear();
    const { streaming_message: _ended, ...rest } = this.folded;
    return rest;
  }

  fanOut(event: AgentEvent): void {
    this.flushRun();
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
