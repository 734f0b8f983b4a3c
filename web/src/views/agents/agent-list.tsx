/**
 * The daemon's agents, subagents nested under their parents, each with its live activity
 * (from `agent_activity`), runtime state, model, mode, sandbox mode ("unsandboxed" stands out),
 * cwd, usage and a needs-you mark.
 * Click to open one; Alt+↑ / Alt+↓ (agent-switch-keys.ts) move through the same order.
 * A filter box narrows it; finished subagents fold under their parent (shown-agents.ts); the
 * selected row offers rename and delete.
 */
import { createSignal, For, Show } from "solid-js";
import type { AgentRow, ControlRoom } from "../../state/control-room.ts";
import { turnState } from "../failures/turn-state.ts";
import type { Catalogs } from "../pickers/catalogs.ts";
import { AgentRowActions } from "./agent-row-actions.tsx";
import { agentName, placeAgents } from "./agent-tree.ts";
import { CreateAgentForm } from "./create-agent-form.tsx";
import type { NeedsYouTracker } from "./needs-you-tracker.ts";
import { sandboxBadge } from "./sandbox-label.ts";
import { shownAgents } from "./shown-agents.ts";
import { statusLabel } from "./status-label.ts";
import { usageLabel } from "./usage-label.ts";

export function AgentList(props: {
  room: ControlRoom;
  needsYou: NeedsYouTracker;
  catalogs: Catalogs;
  onOpen?: () => void;
}) {
  const [filter, setFilter] = createSignal("");
  const [expanded, setExpanded] = createSignal<ReadonlySet<string>>(new Set());
  const shown = () =>
    shownAgents(placeAgents(Object.values(props.room.agents)), {
      filter: filter(),
      expanded: expanded(),
      selected: props.room.selected(),
    });
  const toggle = (agentId: string) =>
    setExpanded((open) => {
      const next = new Set(open);
      if (!next.delete(agentId)) next.add(agentId);
      return next;
    });
  const empty = () => (filter().trim() === "" ? "No agents yet." : `No agent matches “${filter().trim()}”.`);
  return (
    <nav class="agent-list" aria-label="agents">
      <CreateAgentForm room={props.room} catalogs={props.catalogs} onCreated={props.onOpen} />
      <input
        type="search"
        class="agent-filter"
        data-testid="agent-filter"
        aria-label="filter agents"
        placeholder="Filter agents"
        value={filter()}
        onInput={(e) => setFilter(e.currentTarget.value)}
      />
      <ul>
        <For each={shown()} fallback={<li class="muted empty-list">{empty()}</li>}>
          {(entry) => (
            <li>
              <AgentRowButton
                room={props.room}
                row={entry.row}
                depth={entry.depth}
                mark={props.needsYou.marks[entry.row.info.agent_id]}
                onOpen={props.onOpen}
              />
              <Show when={props.room.selected() === entry.row.info.agent_id}>
                <AgentRowActions
                  room={props.room}
                  agentId={entry.row.info.agent_id}
                  name={agentName(entry.row.info)}
                />
              </Show>
              <Show when={entry.finishedChildren > 0}>
                <button
                  type="button"
                  class="fold-toggle"
                  data-testid="subagents-toggle"
                  data-depth={entry.depth}
                  aria-expanded={entry.expanded ? "true" : "false"}
                  onClick={() => toggle(entry.row.info.agent_id)}
                >
                  {entry.expanded ? "Hide" : "Show"} {entry.finishedChildren} finished{" "}
                  {entry.finishedChildren === 1 ? "subagent" : "subagents"}
                </button>
              </Show>
            </li>
          )}
        </For>
      </ul>
    </nav>
  );
}

function AgentRowButton(props: {
  room: ControlRoom;
  row: AgentRow;
  depth: number;
  mark: string | undefined;
  onOpen: (() => void) | undefined;
}) {
  const info = () => props.row.info;
  const usage = () => {
    const live = props.room.snapshot(info().agent_id)()?.usage;
    return usageLabel(live !== undefined && live.input + live.output > 0 ? live : info().usage);
  };
  const mode = () => props.room.snapshot(info().agent_id)()?.mode ?? info().mode;
  const model = () => props.room.snapshot(info().agent_id)()?.model?.id ?? info().model;
  // The attached agent's live sandbox (sandbox_changed); otherwise what agent.list said.
  const sandbox = () => props.room.snapshot(info().agent_id)()?.sandbox?.mode ?? info().sandbox?.mode;
  // An attached agent's retry or failed turn, as its header says it (turn-state.ts).
  const turn = () => turnState(props.room.snapshot(info().agent_id)());
  return (
    <button
      type="button"
      class="agent-row"
      classList={{ child: props.depth > 0 }}
      data-testid="agent-row"
      data-agent-id={info().agent_id}
      data-depth={props.depth}
      data-needs-you={props.mark}
      data-runtime-state={info().runtime_state}
      aria-current={props.room.selected() === info().agent_id ? "true" : undefined}
      onClick={() => {
        props.room.select(info().agent_id);
        props.onOpen?.();
      }}
    >
      <span class="agent-line">
        <span class="agent-name">{agentName(info())}</span>
        <Show when={props.mark}>
          {(mark) => (
            <span class="needs-you" data-testid="needs-you" data-kind={mark()}>
              {markLabel(mark())}
            </span>
          )}
        </Show>
      </span>
      <span class="agent-meta" data-testid="agent-activity">
        <span
          class="phase agent-state"
          data-phase={props.row.activity?.phase ?? "idle"}
          data-state={turn()?.kind ?? props.row.activity?.phase ?? props.row.info.status}
          title={turn()?.long}
        >
          {turn()?.short ?? activityLabel(props.row)}
        </span>
        <span> · {info().runtime_state}</span>
      </span>
      <span class="agent-meta">
        <Show when={model()}>{(m) => <span data-testid="agent-model">{m()}</span>}</Show>
        <Show when={mode()}>{(m) => <span data-testid="agent-mode"> · {m()}</span>}</Show>
        <Show when={sandbox()}>
          {(s) => (
            <>
              {" · "}
              <span class="row-sandbox" data-testid="agent-sandbox" data-mode={s()}>
                {sandboxBadge(s())}
              </span>
            </>
          )}
        </Show>
      </span>
      <span class="agent-meta path">
        {/* Where it runs, unless this machine (docs/placements.md). */}
        <Show when={info().placement !== undefined && info().placement !== "local"}>
          <span class="row-placement" data-testid="agent-placement">
            {info().placement}:
          </span>{" "}
        </Show>
        {info().cwd}
      </span>
      <Show when={usage()}>
        {(u) => (
          <span class="agent-meta" data-testid="agent-usage">
            {u()}
          </span>
        )}
      </Show>
    </button>
  );
}

function markLabel(mark: string): string {
  switch (mark) {
    case "waiting":
      return "needs you";
    case "finished":
      return "done";
    case "failed":
      return "failed";
    default:
      return mark;
  }
}

function activityLabel(row: AgentRow): string {
  const activity = row.activity;
  if (activity === undefined) return statusLabel(row.info.status);
  return activity.tool_name !== undefined ? `${activity.phase}: ${activity.tool_name}` : activity.phase;
}
