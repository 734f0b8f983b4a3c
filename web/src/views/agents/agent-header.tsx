/**
 * The top of the selected agent's pane: its name, state, sandbox mode (a menu that changes it),
 * working directory, usage, its MCP servers, the pickers its runtime advertises, the sessions and changes panel toggles, terminate and kill.
 */
import { Show } from "solid-js";
import type { AgentStatus } from "../../../../src/types/agent-state.ts";
import type { ControlRoom } from "../../state/control-room.ts";
import { turnState } from "../failures/turn-state.ts";
import type { Catalogs } from "../pickers/catalogs.ts";
import { Pickers } from "../pickers/pickers.tsx";
import { AgentActions } from "./agent-actions.tsx";
import { agentName } from "./agent-tree.ts";
import { McpServers } from "./mcp-servers.tsx";
import { SandboxControl } from "./sandbox-control.tsx";
import { statusLabel } from "./status-label.ts";
import { budgetLabel, usageLabel } from "./usage-label.ts";

export function AgentHeader(props: {
  room: ControlRoom;
  agentId: string;
  catalogs: Catalogs;
  sessionsOpen: boolean;
  toggleSessions: () => void;
  changesOpen: boolean;
  toggleChanges: () => void;
}) {
  const info = () => props.room.agents[props.agentId]?.info;
  const snapshot = () => props.room.snapshot(props.agentId)();
  const name = () => {
    const i = info();
    return i === undefined ? props.agentId : agentName(i);
  };
  return (
    <header class="agent-header" data-testid="agent-header">
      <div class="agent-title">
        <h2>{name()}</h2>
        <span class="agent-meta">
          <span
            class="agent-state"
            data-testid="agent-status"
            data-state={turnState(snapshot())?.kind ?? snapshot()?.status ?? info()?.status}
          >
            {turnState(snapshot())?.long ?? statusText(snapshot()?.status ?? info()?.status)}
          </span>{" "}
          · {info()?.runtime_state}
        </span>
        <span class="agent-meta path">{info()?.cwd}</span>
        <Show when={usageLabel(snapshot()?.usage ?? info()?.usage)}>
          {(u) => (
            <span class="agent-meta" data-testid="agent-header-usage">
              {u()}
            </span>
          )}
        </Show>
        <Show when={budgetLabel(snapshot()?.budget)}>
          {(b) => (
            <span
              class="agent-meta agent-budget"
              data-testid="agent-budget"
              data-exceeded={snapshot()?.budget?.exceeded !== undefined ? "true" : "false"}
              role={snapshot()?.budget?.exceeded !== undefined ? "status" : undefined}
            >
              {b()}
            </span>
          )}
        </Show>
        <McpServers servers={snapshot()?.mcp_servers ?? info()?.mcp_servers} />
      </div>
      <div class="agent-controls">
        {/* With the pickers: on a phone their row is the one that already holds 44 px targets. */}
        <SandboxControl room={props.room} agentId={props.agentId} cwd={info()?.cwd} />
        <Pickers room={props.room} agentId={props.agentId} catalogs={props.catalogs} />
        <button
          type="button"
          data-testid="sessions-toggle"
          aria-expanded={props.sessionsOpen ? "true" : "false"}
          onClick={() => props.toggleSessions()}
        >
          Sessions
        </button>
        <button
          type="button"
          data-testid="changes-toggle"
          aria-expanded={props.changesOpen ? "true" : "false"}
          onClick={() => props.toggleChanges()}
        >
          Changes
        </button>
        <AgentActions room={props.room} agentId={props.agentId} name={name()} />
      </div>
    </header>
  );
}

function statusText(status: AgentStatus | undefined): string {
  return status === undefined ? "" : statusLabel(status);
}
