/** The daemon's agents with their live activity; click to open one, or create a new one. */
import { For, Show } from "solid-js";
import type { AgentRow, ControlRoom } from "../../state/control-room.ts";
import { CreateAgentForm } from "./create-agent-form.tsx";

export function AgentList(props: { room: ControlRoom }) {
  const rows = () => Object.values(props.room.agents).sort((a, b) => a.info.created_at - b.info.created_at);
  return (
    <nav class="agent-list" aria-label="agents">
      <CreateAgentForm room={props.room} />
      <ul>
        <For each={rows()} fallback={<li class="muted">No agents yet.</li>}>
          {(row) => (
            <li>
              <button
                type="button"
                class="agent-row"
                data-testid="agent-row"
                data-agent-id={row.info.agent_id}
                aria-current={props.room.selected() === row.info.agent_id ? "true" : undefined}
                onClick={() => props.room.select(row.info.agent_id)}
              >
                <span class="agent-name">{row.info.name ?? row.info.display_name ?? row.info.agent_id}</span>
                <span class="agent-meta">
                  {activityLabel(row)} · {row.info.runtime_state}
                </span>
                <Show when={row.info.model}>{(model) => <span class="agent-meta">{model()}</span>}</Show>
                <span class="agent-meta path">{row.info.cwd}</span>
              </button>
            </li>
          )}
        </For>
      </ul>
    </nav>
  );
}

function activityLabel(row: AgentRow): string {
  const activity = row.activity;
  if (activity === undefined) return row.info.status;
  return activity.tool_name !== undefined ? `${activity.phase}: ${activity.tool_name}` : activity.phase;
}
