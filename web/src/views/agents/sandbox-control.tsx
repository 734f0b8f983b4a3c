/**
 * The header's sandbox badge as a menu: a native <select> laid over the badge (so it looks like
 * the badge and keeps the platform's keyboard and screen-reader behaviour) offering the modes
 * this machine can give. Picking one sends `set_sandbox`: a stricter mode applies at once (the
 * badge follows `sandbox_changed`); a looser one is a question the person answers on its
 * permission card, and until it is answered the control says so. The badge always shows the
 * agent's actual mode, never the pick.
 */
import { For, Show } from "solid-js";
import type { SandboxState } from "../../../../src/types/sandbox.ts";
import type { ControlRoom } from "../../state/control-room.ts";
import { SandboxBadge } from "./sandbox-badge.tsx";
import {
  sandboxBadge,
  sandboxChoices,
  sandboxDescription,
  sandboxUnavailableNotice,
} from "./sandbox-label.ts";

export function SandboxControl(props: { room: ControlRoom; agentId: string; cwd: string | undefined }) {
  const sandbox = () => props.room.snapshot(props.agentId)()?.sandbox;
  // The open loosening question (this page's or another client's), from the snapshot.
  const asked = () => {
    for (const request of props.room.snapshot(props.agentId)()?.pending_requests ?? [])
      if (request.type === "permission_request" && request.tool_name === "set_sandbox") return request;
    return undefined;
  };
  const choose = (select: HTMLSelectElement, shown: SandboxState) => {
    const mode = sandboxChoices(shown).find((m) => m === select.value);
    if (mode === undefined) return;
    void props.room
      .attempt(
        () => props.room.connection.call({ type: "set_sandbox", agent_id: props.agentId, mode }),
        props.agentId,
      )
      .then((result) => {
        // Refused, or asked and not yet allowed: the menu goes back to the mode the agent has.
        if (!result.ok || result.value.pending) select.value = sandbox()?.mode ?? shown.mode;
      });
  };
  return (
    <Show when={sandbox()}>
      {(state) => (
        <span class="sandbox-control" data-testid="sandbox-control">
          <span class="sandbox-picker">
            <SandboxBadge sandbox={state()} cwd={props.cwd} decorative />
            <span class="sandbox-caret" aria-hidden="true">
              ▾
            </span>
            <select
              class="sandbox-select"
              data-testid="sandbox-select"
              data-value={state().mode}
              aria-label="sandbox mode"
              title={sandboxUnavailableNotice(state()) ?? sandboxDescription(state(), props.cwd)}
              disabled={state().unavailable !== undefined}
              onChange={(e) => choose(e.currentTarget, state())}
            >
              <For each={sandboxChoices(state())}>
                {(mode) => (
                  <option value={mode} selected={mode === state().mode}>
                    {sandboxBadge(mode)}
                  </option>
                )}
              </For>
            </select>
          </span>
          <span class="agent-meta sandbox-asked" role="status" data-testid="sandbox-asked">
            <Show when={asked()}>
              {(request) => `asked for ${request().sandbox ?? "a looser sandbox"} — waiting for an answer`}
            </Show>
          </span>
        </span>
      )}
    </Show>
  );
}
