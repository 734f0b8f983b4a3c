/**
 * The page's state: the daemon's agents (from `agent.list` and registry events) and, for each
 * attached agent, its `AgentSnapshot` kept by the shared reducer (src/snapshot) — the same
 * projection the daemon and the SDK hold, so what the page shows is what `sync` would say.
 * A snapshot lives in one signal; views derive memos from it, so a delta repaints only what it
 * changed (the message list keeps its identity while only the streaming message grows).
 */

import { Value } from "@sinclair/typebox/value";
import { type Accessor, createSignal, type Setter, type Signal } from "solid-js";
import { createStore, produce } from "solid-js/store";
import { type AgentSnapshot, emptySnapshot } from "../../../src/snapshot/agent-snapshot.ts";
import { applyEvent } from "../../../src/snapshot/apply-event.ts";
import type { AgentInfo } from "../../../src/types/agent-info.ts";
import type { AgentEvent, DaemonEvent } from "../../../src/types/catalog.ts";
import { AgentListResultSchema } from "../../../src/types/orchestrator.ts";
import type { AgentActivityEvent } from "../../../src/types/orchestrator-events.ts";
import { type ConnectionState, DaemonConnection, RequestError } from "../connection/daemon-connection.ts";
import type { Inbound } from "../connection/inbound.ts";

export interface AgentRow {
  info: AgentInfo;
  activity?: AgentActivityEvent;
}

export interface Notice {
  id: number;
  agentId?: string;
  text: string;
}

export interface ControlRoom {
  connection: DaemonConnection;
  state: Accessor<ConnectionState>;
  agents: Record<string, AgentRow>;
  selected: Accessor<string | undefined>;
  select(agentId: string | undefined): void;
  snapshot(agentId: string): Accessor<AgentSnapshot | undefined>;
  notices: Accessor<Notice[]>;
  notify(text: string, agentId?: string): void;
  dismissNotice(id: number): void;
  /** Runs a command and turns its failure into a notice (the daemon's own message). */
  run(action: () => Promise<unknown>, agentId?: string): Promise<boolean>;
  /** Hears each attached agent's events after the snapshot took them (e.g. who answered a request). */
  onAgentEvent(listener: AgentEventListener): () => void;
}

export type AgentEventListener = (agentId: string, event: AgentEvent) => void;

const MAX_NOTICES = 5;

export function createControlRoom(): ControlRoom {
  const [state, setState] = createSignal<ConnectionState>({ kind: "connecting" });
  const [agents, setAgents] = createStore<Record<string, AgentRow>>({});
  const [selected, setSelected] = createSignal<string | undefined>(initialSelection());
  const [notices, setNotices] = createSignal<Notice[]>([]);
  const snapshots = new Map<string, Signal<AgentSnapshot | undefined>>();
  const attached = new Set<string>();
  const eventListeners = new Set<AgentEventListener>();
  let noticeId = 0;

  function snapshotSignal(agentId: string): Signal<AgentSnapshot | undefined> {
    let signal = snapshots.get(agentId);
    if (signal === undefined) {
      signal = createSignal<AgentSnapshot | undefined>(undefined);
      snapshots.set(agentId, signal);
    }
    return signal;
  }

  function notify(text: string, agentId?: string): void {
    const notice: Notice = { id: ++noticeId, text, ...(agentId !== undefined ? { agentId } : {}) };
    setNotices((list) => [...list, notice].slice(-MAX_NOTICES));
  }

  async function run(action: () => Promise<unknown>, agentId?: string): Promise<boolean> {
    try {
      await action();
      return true;
    } catch (err) {
      const text = err instanceof RequestError ? `${err.code}: ${err.message}` : String(err);
      notify(text, agentId);
      return false;
    }
  }

  async function refreshList(): Promise<void> {
    const data = await connection.call({ type: "agent.list" });
    const list = agentList(data);
    setAgents(
      produce((rows) => {
        const seen = new Set<string>();
        for (const info of list) {
          seen.add(info.agent_id);
          rows[info.agent_id] = { ...rows[info.agent_id], info };
        }
        for (const id of Object.keys(rows)) if (!seen.has(id)) delete rows[id];
      }),
    );
  }

  async function attach(agentId: string): Promise<void> {
    attached.add(agentId);
    await connection.call({ type: "agent.attach", agent_id: agentId, role: "interactive" });
  }

  function onOpen(): void {
    void run(async () => {
      await refreshList();
      // Re-attach everything watched before the drop: each attach answers with a fresh `sync`.
      const watch = new Set(attached);
      const current = selected();
      if (current !== undefined && agents[current] !== undefined) watch.add(current);
      await Promise.all([...watch].map((id) => attach(id)));
    });
  }

  function onMessage(message: Inbound): void {
    switch (message.kind) {
      case "agent": {
        if (!attached.has(message.agentId)) return;
        const [get, set] = snapshotSignal(message.agentId);
        applyTo(get, set, message.event);
        for (const listener of eventListeners) listener(message.agentId, message.event);
        if (message.event.type === "error")
          notify(`${message.event.code}: ${message.event.message}`, message.agentId);
        return;
      }
      case "daemon":
        onDaemonEvent(message.event);
        return;
      case "response":
      case "hello":
      case "invalid":
        return;
    }
  }

  function onDaemonEvent(event: DaemonEvent): void {
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
        notify(`runtime exited: ${event.reason}`, event.agent_id);
        return;
      case "agent_activity":
        if (agents[event.agent_id] === undefined) return;
        setAgents(event.agent_id, "activity", event);
        return;
      default:
        return;
    }
  }

  const connection = new DaemonConnection({ state: setState, open: onOpen, message: onMessage });

  function select(agentId: string | undefined): void {
    setSelected(agentId);
    const url = new URL(window.location.href);
    if (agentId === undefined) url.searchParams.delete("agent");
    else url.searchParams.set("agent", agentId);
    history.replaceState(null, "", url.pathname + url.search);
    if (agentId !== undefined && !attached.has(agentId) && state().kind === "open") {
      void run(() => attach(agentId), agentId);
    }
  }

  return {
    connection,
    state,
    agents,
    selected,
    select,
    snapshot: (agentId) => snapshotSignal(agentId)[0],
    notices,
    notify,
    dismissNotice: (id) => setNotices((list) => list.filter((n) => n.id !== id)),
    run,
    onAgentEvent: (listener) => {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
  };
}

function applyTo(
  get: Accessor<AgentSnapshot | undefined>,
  set: Setter<AgentSnapshot | undefined>,
  event: Parameters<typeof applyEvent>[1],
): void {
  const current = get();
  // Until the attach's `sync` arrives there is nothing to apply a delta to.
  if (current === undefined && event.type !== "sync") return;
  set(applyEvent(current ?? emptySnapshot(), event));
}

function agentList(data: unknown): AgentInfo[] {
  return Value.Check(AgentListResultSchema, data) ? data.agents : [];
}

function initialSelection(): string | undefined {
  return new URL(window.location.href).searchParams.get("agent") ?? undefined;
}
