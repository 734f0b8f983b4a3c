/**
 * Connection status in the top bar: connected, connecting, or waiting to reconnect — then with
 * the reason (the daemon's close reason, or why the ticket was refused), a countdown and
 * "retry now". A revoked or never-enrolled browser gets the not-enrolled screen instead.
 */
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
  const reason = () => {
    const state = props.room.state();
    return state.kind === "waiting" ? state.reason : undefined;
  };
  return (
    <span
      class="connection"
      role="status"
      data-state={props.room.state().kind}
      data-testid="connection"
      title={reason() ?? ""}
    >
      <span class="dot" />
      <span class="connection-label">{label()}</span>
      <Show when={reason()}>
        {(text) => (
          <>
            <span class="muted connection-reason" data-testid="connection-reason">
              {" "}
              — {text()}
            </span>
            <button type="button" class="link" onClick={() => props.room.connection.retryNow()}>
              retry now
            </button>
          </>
        )}
      </Show>
    </span>
  );
}
