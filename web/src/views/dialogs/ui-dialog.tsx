/** One `ui_request` of any kind: select, confirm, input, editor, notify. `null` cancels. */
import { createSignal, For, Match, Show, Switch } from "solid-js";
import type { UiRequest } from "../../../../src/types/permissions.ts";
import type { ControlRoom } from "../../state/control-room.ts";

export function UiDialog(props: { room: ControlRoom; agentId: string; request: UiRequest }) {
  const [value, setValue] = createSignal(props.request.prefill ?? "");
  const respond = (answer: string | string[] | null) =>
    void props.room.run(
      () =>
        props.room.connection.call({
          type: "ui_response",
          agent_id: props.agentId,
          request_id: props.request.request_id,
          value: answer,
        }),
      props.agentId,
    );
  return (
    <section
      class="dialog ui"
      role="dialog"
      aria-label={props.request.title ?? "question"}
      data-testid="ui-dialog"
    >
      <Show when={props.request.title}>{(title) => <h3>{title()}</h3>}</Show>
      <Show when={props.request.message}>{(message) => <p>{message()}</p>}</Show>
      <Switch>
        <Match when={props.request.kind === "select"}>
          <div class="choices">
            <For each={props.request.options ?? []}>
              {(option) => (
                <button type="button" onClick={() => respond(option)}>
                  {option}
                </button>
              )}
            </For>
          </div>
        </Match>
        <Match when={props.request.kind === "confirm"}>
          <div class="choices">
            <button type="button" onClick={() => respond("yes")}>
              Yes
            </button>
            <button type="button" onClick={() => respond("no")}>
              No
            </button>
          </div>
        </Match>
        <Match when={props.request.kind === "input" || props.request.kind === "editor"}>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              respond(value());
            }}
          >
            <Show
              when={props.request.kind === "editor"}
              fallback={
                <input
                  value={value()}
                  placeholder={props.request.placeholder ?? ""}
                  onInput={(e) => setValue(e.currentTarget.value)}
                />
              }
            >
              <textarea value={value()} onInput={(e) => setValue(e.currentTarget.value)} />
            </Show>
            <button type="submit">Submit</button>
          </form>
        </Match>
        <Match when={props.request.kind === "notify"}>
          <button type="button" onClick={() => respond("ok")}>
            OK
          </button>
        </Match>
      </Switch>
      <Show when={props.request.kind !== "notify"}>
        <button type="button" class="link" onClick={() => respond(null)}>
          Cancel
        </button>
      </Show>
    </section>
  );
}
