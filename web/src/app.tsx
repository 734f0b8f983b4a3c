/**
 * The control room: enroll from the URL fragment if one is there, then connect and show the
 * agent list beside the selected agent's transcript, composer and open dialogs.
 */
import { createResource, Match, onCleanup, Show, Switch } from "solid-js";
import { enrollFromUrl } from "./auth/enrollment.ts";
import { createControlRoom } from "./state/control-room.ts";
import { AgentList } from "./views/agents/agent-list.tsx";
import { Composer } from "./views/composer/composer.tsx";
import { PendingDialogs } from "./views/dialogs/pending-dialogs.tsx";
import { ConnectionBadge } from "./views/shell/connection-badge.tsx";
import { NotEnrolled } from "./views/shell/not-enrolled.tsx";
import { Notices } from "./views/shell/notices.tsx";
import { Transcript } from "./views/transcript/transcript.tsx";

export function App() {
  const room = createControlRoom();
  const [enrollment] = createResource(async () => {
    const outcome = await enrollFromUrl();
    room.connection.start();
    return outcome;
  });
  onCleanup(() => room.connection.stop());

  return (
    <Switch>
      <Match when={room.state().kind === "not_enrolled"}>
        <NotEnrolled refusal={enrollment()} state={room.state()} />
      </Match>
      <Match when={true}>
        <div class="room">
          <header class="topbar">
            <span class="brand">Shard</span>
            <ConnectionBadge room={room} />
          </header>
          <aside class="sidebar">
            <AgentList room={room} />
          </aside>
          <main class="agent-pane">
            <Show when={room.selected()} fallback={<p class="empty">Select or create an agent.</p>}>
              {(agentId) => (
                <>
                  <Transcript room={room} agentId={agentId()} />
                  <PendingDialogs room={room} agentId={agentId()} />
                  <Composer room={room} agentId={agentId()} />
                </>
              )}
            </Show>
          </main>
          <Notices room={room} />
        </div>
      </Match>
    </Switch>
  );
}
