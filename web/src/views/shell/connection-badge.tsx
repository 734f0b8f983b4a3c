/** Connection status in the top bar; while waiting to reconnect it offers "retry now". */
import { createSignal, onCleanup, Show } from "solid-js";
import type { ControlRoom } from "../../state/control-room.ts";

export function ConnectionBadge(props: { room: ControlRoom }) {
  const [now, setNow] = createSignal(Date.now());
  const tick = setInterval(() => setNow(Date.now()), 1000);
  onCleanup(() => clearInterval(tick));
  const label = () => {
    const state = props.room.state();
    switch (state.kind) {
      case "open":
        return "connected";
      case "connecting":
        return "connecting…";
      case "waiting":
        return `reconnecting in ${Math.max(0, Math.ceil((state.retryAt - now()) / 1000))} s`;
      case "not_enrolled":
        return "not enrolled";
    }
  };
  return (
    <span
      class="connection"
      data-state={props.room.state().kind}
      data-testid="connection"
      title={reason(props.room)}
    >
      <span class="dot" />
      {label()}
      <Show when={props.room.state().kind === "waiting"}>
        <button type="button" class="link" onClick={() => props.room.connection.retryNow()}>
          retry now
        </button>
      </Show>
    </span>
  );
}

function reason(room: ControlRoom): string {
  const state = room.state();
  return state.kind === "waiting" ? state.reason : "";
}
