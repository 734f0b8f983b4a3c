/** One permission request: what the tool wants (its details as text) and the choices offered. */
import { For, Show } from "solid-js";
import type { PermissionDecision, PermissionRequest } from "../../../../src/types/permissions.ts";
import type { ControlRoom } from "../../state/control-room.ts";

export function PermissionDialog(props: { room: ControlRoom; agentId: string; request: PermissionRequest }) {
  const answer = (answer: { choice_id: string } | { decision: PermissionDecision }) =>
    void props.room.run(
      () =>
        props.room.connection.call({
          type: "permission_response",
          agent_id: props.agentId,
          request_id: props.request.request_id,
          ...answer,
        }),
      props.agentId,
    );
  return (
    <section
      class="dialog permission"
      role="dialog"
      aria-label="permission request"
      data-testid="permission-dialog"
    >
      <h3>{props.request.tool_name}</h3>
      <p>{props.request.prompt}</p>
      <For each={props.request.details ?? []}>
        {(detail) => (
          <div class="detail">
            <Show when={detail.label}>{(label) => <span class="muted">{label()}</span>}</Show>
            <pre class={`detail-${detail.format ?? "text"}`}>{detail.value}</pre>
          </div>
        )}
      </For>
      <div class="choices">
        <Show
          when={props.request.choices}
          fallback={
            <For each={props.request.options}>
              {(option) => (
                <button
                  type="button"
                  class={option === "deny" ? "danger" : ""}
                  onClick={() => answer({ decision: option })}
                >
                  {option.replace("_", " ")}
                </button>
              )}
            </For>
          }
        >
          {(choices) => (
            <For each={choices()}>
              {(choice) => (
                <button
                  type="button"
                  class={choice.intent === "deny" ? "danger" : ""}
                  title={choice.description ?? ""}
                  onClick={() => answer({ choice_id: choice.id })}
                >
                  {choice.label}
                </button>
              )}
            </For>
          )}
        </Show>
      </div>
    </section>
  );
}
