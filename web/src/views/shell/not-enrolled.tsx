/** Shown when this browser holds no valid session: how to enroll it (the daemon's own reason too). */
import { Show } from "solid-js";
import type { EnrollOutcome } from "../../auth/enrollment.ts";
import type { ConnectionState } from "../../connection/daemon-connection.ts";

export function NotEnrolled(props: { refusal: EnrollOutcome | undefined; state: ConnectionState }) {
  return (
    <main class="enroll" data-testid="not-enrolled">
      <h1>This browser is not enrolled</h1>
      <Show when={props.refusal?.kind === "refused" ? props.refusal : undefined}>
        {(refused) => <p class="error">The enrollment link was refused: {refused().message}</p>}
      </Show>
      <p>
        Run <code>shard auth enroll</code> on the machine where the daemon runs, then open the link it prints
        in this browser. Each link works once and for ten minutes.
      </p>
      <Show when={props.state.kind === "not_enrolled" ? props.state.message : undefined}>
        {(message) => <p class="muted">The daemon said: {message()}</p>}
      </Show>
    </main>
  );
}
