/**
 * The page's state: the daemon's agents (from `agent.list` and registry events) and, for each
 * attached agent, its `AgentSnapshot` kept by the shared reducer (src/snapshot) — the same
 * projection the daemon and the SDK hold, so what the page shows is what `sync` would say.
 * Each attached agent has an AgentFeed (src/snapshot: sync first, then `seq` in order; a gap re-attaches)
 * whose snapshot is published to one signal at most once per animation frame; views derive
 * memos from it, so a delta repaints only what it changed.
 */
import { type Accessor, batch, createSignal, onCleanup, type Signal } from "solid-js";
import { createStore, produce, reconcile } from "solid-js/store";
import { AgentFeed } from "../../../src/snapshot/agent-feed.ts";
import type { AgentSnapshot } from "../../../src/snapshot/agent-snapshot.ts";
import type { AgentInfo } from "../../../src/types/agent-info.ts";
import type { AgentEvent, DaemonEvent } from "../../../src/types/catalog.ts";
import type { AgentActivityEvent } from "../../../src/types/orchestrator-events.ts";
import { type ConnectionState, DaemonConnection, RequestError } from "../connection/daemon-connection.ts";
import type { Inbound } from "../connection/inbound.ts";
import type { Attempt } from "./attempt.ts";
import { type DelegatedRequest, DelegatedRequests } from "./delegated-requests.ts";
import { FrameBatch } from "./frame-batch.ts";
import { WatchedAgents } from "./watched-agents.ts";

export interface AgentRow {
  info: AgentInfo;
  activity?: AgentActivityEvent;
}

export interface Notice {
  id: number;
  agentId?: string;
  text: string;
  /** Stays until dismissed (the agent cannot go on); any other notice expires by itself. */
  lasting: boolean;
}

export interface ControlRoom {
  connection: DaemonConnection;
  state: Accessor<ConnectionState>;
  /**
   * Which opening of the connection this is (1, 2, …), or false while it is not open. A view that
   * loads from the daemon keys its fetch on it: nothing is asked before the socket is up (so no
   * early request shows as a failure), and everything is asked again after a reconnect.
   */
  online: Accessor<number | false>;
  /**
   * The opening whose `sync` the agent's snapshot holds, or false until it has one on this
   * connection. A command that needs the agent attached (its catalogs) keys on it: after a
   * reconnect the old snapshot is still shown, but the new daemon answers only once attached.
   */
  attached(agentId: string): Accessor<number | false>;
  agents: Record<string, AgentRow>;
  selected: Accessor<string | undefined>;
  select(agentId: string | undefined): void;
  snapshot(agentId: string): Accessor<AgentSnapshot | undefined>;
  /** Subagents' questions routed to this page for an ancestor it is attached to (not their own feed). */
  delegated: Accessor<readonly DelegatedRequest[]>;
  notices: Accessor<Notice[]>;
  /** Shows an error; unless `lasting`, it goes away by itself after NOTICE_EXPIRY_MS. */
  notify(text: string, agentId?: string, options?: { lasting?: boolean }): void;
  dismissNotice(id: number): void;
  /**
   * Calls `listener` with every event of an attached agent once its feed has applied it (never
   * for a stale or duplicate event, so nothing is heard twice across a reconnect). The views'
   * snapshot signal catches up at the next frame.
   */
  onAgentEvent(listener: AgentEventListener): () => void;
  /** Calls `listener` with every registry, workspace and subagent event the daemon broadcasts. */
  onDaemonEvent(listener: (event: DaemonEvent) => void): () => void;
  /** Runs a command and turns its failure into a notice (the daemon's own message). */
  run(action: () => Promise<unknown>, agentId?: string): Promise<boolean>;
  /** `run`, keeping the value or the error's text for a view that shows it in place. */
  attempt<T>(action: () => Promise<T>, agentId?: string): Promise<Attempt<T>>;
}

export type AgentEventListener = (agentId: string, event: AgentEvent) => void;

const MAX_NOTICES = 5;
/** How long a notice that is not `lasting` stays. */
export const NOTICE_EXPIRY_MS = 10_000;
/** How often idle attachments are looked for (WatchedAgents.IDLE_DETACH_MS says when one is). */
const SWEEP_MS = 60_000;

export function createControlRoom(): ControlRoom {
  const [state, setState] = createSignal<ConnectionState>({ kind: "connecting" });
  const [online, setOnline] = createSignal<number | false>(false);
  let openings = 0;
  const [agents, setAgents] = createStore<Record<string, AgentRow>>({});
  const [selected, setSelected] = createSignal<string | undefined>(initialSelection());
  const [notices, setNotices] = createSignal<Notice[]>([]);
  const snapshots = new Map<string, Signal<AgentSnapshot | undefined>>();
  const syncedAt = new Map<string, Signal<number | false>>();
  const feeds = new Map<string, AgentFeed>();
  const watched = new WatchedAgents();
  const delegated = new DelegatedRequests();
  /** Agents whose re-attach (after a gap or a reconnect) is in flight, so it is sent once. */
  const attaching = new Set<string>();
  const listeners = new Set<AgentEventListener>();
  const daemonListeners = new Set<(event: DaemonEvent) => void>();
  /** The message of each agent's turn that just failed: the transcript shows it, so no notice repeats it. */
  const failedTurns = new Map<string, string>();
  let noticeId = 0;

  const publish = new FrameBatch<string>((ids) =>
    batch(() => {
      for (const id of ids) {
        const feed = feeds.get(id);
        if (feed !== undefined) snapshotSignal(id)[1](feed.snapshot);
      }
    }),
  );

  function snapshotSignal(agentId: string): Signal<AgentSnapshot | undefined> {
    let signal = snapshots.get(agentId);
    if (signal === undefined) {
      signal = createSignal<AgentSnapshot | undefined>(feeds.get(agentId)?.snapshot);
      snapshots.set(agentId, signal);
    }
    return signal;
  }

  function syncedSignal(agentId: string): Signal<number | false> {
    let signal = syncedAt.get(agentId);
    if (signal === undefined) {
      signal = createSignal<number | false>(false);
      syncedAt.set(agentId, signal);
    }
    return signal;
  }

  function notify(text: string, agentId?: string, options: { lasting?: boolean } = {}): void {
    const lasting = options.lasting ?? false;
    const notice: Notice = { id: ++noticeId, text, lasting, ...(agentId !== undefined ? { agentId } : {}) };
    setNotices((list) => [...list, notice].slice(-MAX_NOTICES));
    if (!lasting) setTimeout(() => dismissNotice(notice.id), NOTICE_EXPIRY_MS);
  }

  function dismissNotice(id: number): void {
    setNotices((list) => list.filter((n) => n.id !== id));
  }

  async function attempt<T>(action: () => Promise<T>, agentId?: string): Promise<Attempt<T>> {
    try {
      return { ok: true, value: await action() };
    } catch (err) {
      const text = err instanceof RequestError ? `${err.code}: ${err.message}` : String(err);
      notify(text, agentId);
      return { ok: false, error: text };
    }
  }

  async function run(action: () => Promise<unknown>, agentId?: string): Promise<boolean> {
    return (await attempt(action, agentId)).ok;
  }

  async function refreshList(): Promise<void> {
    // A failed or malformed answer throws: the rows stay as they were, never wiped to none.
    const list = (await connection.call({ type: "agent.list" })).agents;
    const seen = new Set(list.map((info) => info.agent_id));
    setAgents(
      produce((rows) => {
        // The whole row is replaced: an activity heard before a drop (say `streaming`) is stale,
        // and the fresh status stands until the next `agent_activity`.
        for (const info of list) rows[info.agent_id] = { info };
        for (const id of Object.keys(rows)) if (!seen.has(id)) delete rows[id];
      }),
    );
    // An agent the daemon no longer knows: its snapshot goes too (and any signal a view asked for).
    for (const id of watched.ids()) if (!seen.has(id)) release(id);
    for (const id of snapshots.keys()) if (!seen.has(id) && id !== selected()) snapshots.delete(id);
    for (const id of syncedAt.keys()) if (!seen.has(id) && id !== selected()) syncedAt.delete(id);
  }

  /** Attaches (or re-attaches) and waits for the answer; the `sync` that follows it is authoritative. */
  async function attach(agentId: string): Promise<void> {
    if (attaching.has(agentId)) return;
    attaching.add(agentId);
    watched.watch(agentId);
    let feed = feeds.get(agentId);
    if (feed === undefined) {
      // An event went missing: what the page holds may be wrong, so ask for the whole state again.
      feed = new AgentFeed(() => void run(() => attach(agentId), agentId));
      feeds.set(agentId, feed);
    }
    feed.awaitSync();
    try {
      await connection.call({ type: "agent.attach", agent_id: agentId, role: "interactive" });
    } catch (err) {
      if (err instanceof RequestError && err.code === "NOT_FOUND") release(agentId);
      throw err;
    } finally {
      attaching.delete(agentId);
    }
  }

  /** Forgets an agent's snapshot (deleted, or detached after being idle). */
  function release(agentId: string): void {
    watched.forget(agentId);
    feeds.delete(agentId);
    publish.forget(agentId);
    syncedAt.get(agentId)?.[1](false);
    if (selected() !== agentId) snapshots.delete(agentId);
    else snapshotSignal(agentId)[1](undefined);
  }

  function onOpen(): void {
    void run(async () => {
      await refreshList();
      // Re-attach everything watched before the drop: each attach answers with a fresh `sync`.
      const watch = new Set(watched.ids());
      const current = selected();
      if (current !== undefined && agents[current] !== undefined) watch.add(current);
      await Promise.all([...watch].map((id) => run(() => attach(id), id)));
    });
  }

  function onClosed(): void {
    for (const feed of feeds.values()) feed.awaitSync();
    batch(() => {
      for (const [, setSynced] of syncedAt.values()) setSynced(false);
    });
    delegated.clear();
    attaching.clear();
  }

  function onMessage(message: Inbound): void {
    switch (message.kind) {
      case "agent":
        onAgentEvent(message.agentId, message.event);
        return;
      case "daemon":
        onDaemonEvent(message.event);
        return;
      case "response":
      case "hello":
      case "invalid":
        return;
    }
  }

  function onAgentEvent(agentId: string, event: AgentEvent): void {
    const feed = feeds.get(agentId);
    if (feed === undefined) {
      delegated.receive(agentId, event);
      return;
    }
    // Attached to the asker too: its own feed shows the request from now on.
    if (event.type === "permission_resolved" || event.type === "ui_resolved")
      delegated.resolved(event.request_id);
    const step = feed.receive(event);
    if (step.kind === "synced") syncedSignal(agentId)[1](openings);
    if (step.kind === "applied" || step.kind === "synced") {
      publish.mark(agentId);
      for (const listener of listeners) listener(agentId, event);
      if (event.type === "turn_failed") failedTurns.set(agentId, event.failure.message);
      // A failed turn is a marker in its transcript; a notice only says it when that transcript
      // is not the one on screen.
      if (event.type === "error") {
        const shownInline = failedTurns.get(agentId) === event.message && selected() === agentId;
        if (!shownInline)
          notify(`${event.code}: ${event.message}`, agentId, { lasting: event.fatal === true });
      }
      if (event.type === "error" || event.type === "turn_end") failedTurns.delete(agentId);
      if (event.type === "queue_dropped") {
        const what = event.count === 1 ? "1 queued message was" : `${event.count} queued messages were`;
        notify(`An abort cleared the queue: ${what} dropped and will not be sent.`, agentId);
      }
    }
  }

  function onDaemonEvent(event: DaemonEvent): void {
    for (const listener of daemonListeners) listener(event);
    switch (event.type) {
      case "agent_spawned":
        setAgents(event.agent_id, { info: event.info });
        return;
      case "agent_status_changed":
        if (agents[event.agent_id] === undefined) return;
        setAgents(event.agent_id, "info", { status: event.status, runtime_state: event.runtime_state });
        return;
      case "agent_exited":
        if (agents[event.agent_id] === undefined) return;
        setAgents(event.agent_id, "info", "runtime_state", "failed");
        notify(`runtime exited: ${event.reason}`, event.agent_id, { lasting: true });
        return;
      case "agent_activity":
        if (agents[event.agent_id] === undefined) return;
        // Replaced, never merged: a `tool_name` of an earlier phase must not outlive it.
        setAgents(event.agent_id, "activity", reconcile(event));
        return;
      case "agent_updated":
        setAgents(event.agent_id, "info", event.info);
        return;
      case "agent_deleted":
        if (selected() === event.agent_id) select(undefined);
        setAgents(
          produce((rows) => {
            delete rows[event.agent_id];
          }),
        );
        release(event.agent_id);
        snapshots.delete(event.agent_id);
        return;
      default:
        return;
    }
  }

  const connection = new DaemonConnection({
    state: (next) =>
      batch(() => {
        setState(next);
        setOnline(next.kind === "open" ? ++openings : false);
      }),
    open: onOpen,
    closed: onClosed,
    message: onMessage,
  });

  // Detach agents nobody has looked at for a while (the selected one always stays).
  const sweep = setInterval(() => {
    const current = selected();
    if (current !== undefined) watched.viewed(current);
    for (const id of watched.idle(current)) {
      if (state().kind === "open")
        void connection.call({ type: "agent.detach", agent_id: id }).catch(() => {});
      release(id);
    }
  }, SWEEP_MS);
  // The room lives as long as the component that made it (the page's App).
  onCleanup(() => clearInterval(sweep));

  function select(agentId: string | undefined): void {
    const previous = selected();
    if (previous !== undefined) watched.viewed(previous);
    setSelected(agentId);
    // The address bar follows the selection (a reload reopens it), off the path to first paint.
    setTimeout(() => rememberSelection(agentId), 0);
    if (agentId === undefined) return;
    if (watched.has(agentId)) watched.viewed(agentId);
    else if (state().kind === "open") void run(() => attach(agentId), agentId);
  }

  return {
    connection,
    state,
    online,
    attached: (agentId) => syncedSignal(agentId)[0],
    agents,
    selected,
    select,
    snapshot: (agentId) => snapshotSignal(agentId)[0],
    delegated: delegated.list,
    notices,
    notify,
    dismissNotice,
    onAgentEvent: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onDaemonEvent: (listener) => {
      daemonListeners.add(listener);
      return () => daemonListeners.delete(listener);
    },
    run,
    attempt,
  };
}

function rememberSelection(agentId: string | undefined): void {
  const url = new URL(window.location.href);
  if (agentId === undefined) url.searchParams.delete("agent");
  else url.searchParams.set("agent", agentId);
  history.replaceState(null, "", url.pathname + url.search);
}

function initialSelection(): string | undefined {
  return new URL(window.location.href).searchParams.get("agent") ?? undefined;
}
