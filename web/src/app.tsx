/**
 * The control room: enroll from the URL fragment if one is there, then connect and show the
 * agent list beside the selected agent — its header (pickers, sessions, terminate/kill),
 * transcript, open dialogs and composer. On a narrow screen the list is a drawer.
 */
import { createResource, createSignal, Match, onCleanup, Show, Switch } from "solid-js";
import { enrollFromUrl } from "./auth/enrollment.ts";
import { createControlRoom } from "./state/control-room.ts";
import { AgentHeader } from "./views/agents/agent-header.tsx";
import { AgentList } from "./views/agents/agent-list.tsx";
import { useAgentSwitchKeys } from "./views/agents/agent-switch-keys.ts";
import { createNeedsYouTracker } from "./views/agents/needs-you-tracker.ts";
import { createNotifications } from "./views/agents/notifications.ts";
import { NotifyToggle } from "./views/agents/notify-toggle.tsx";
import { SandboxNotice } from "./views/agents/sandbox-notice.tsx";
import { ChangesPanel } from "./views/changes/changes-panel.tsx";
import { Composer } from "./views/composer/composer.tsx";
import { PendingDialogs } from "./views/dialogs/pending-dialogs.tsx";
import { JobsPanel } from "./views/jobs/jobs-panel.tsx";
import { createCatalogs } from "./views/pickers/catalogs.ts";
import { ModelProblem } from "./views/pickers/model-problem.tsx";
import { CompactionMarker } from "./views/sessions/compaction-marker.tsx";
import { SessionsPanel } from "./views/sessions/sessions-panel.tsx";
import { ConnectionBadge } from "./views/shell/connection-badge.tsx";
import { FirstRun } from "./views/shell/first-run.tsx";
import { NotEnrolled } from "./views/shell/not-enrolled.tsx";
import { Notices } from "./views/shell/notices.tsx";
import { createProviderStatus } from "./views/shell/provider-status.ts";
import { createTheme } from "./views/shell/theme.ts";
import { ThemeToggle } from "./views/shell/theme-toggle.tsx";
import { Transcript } from "./views/transcript/transcript.tsx";
import { UsagePanel } from "./views/usage/usage-panel.tsx";
import { WorkspacesPanel } from "./views/workspaces/workspaces-panel.tsx";

export function App() {
  const room = createControlRoom();
  const [enrollment] = createResource(async () => {
    const outcome = await enrollFromUrl();
    room.connection.start();
    return outcome;
  });
  onCleanup(() => room.connection.stop());

  const theme = createTheme();
  const notifications = createNotifications();
  const needsYou = createNeedsYouTracker(room, notifications);
  const catalogs = createCatalogs(room, room.selected);
  const provider = createProviderStatus(room);
  const [drawerOpen, setDrawerOpen] = createSignal(room.selected() === undefined);
  const [sessionsOpen, setSessionsOpen] = createSignal(false);
  const [changesOpen, setChangesOpen] = createSignal(false);
  const [workspacesOpen, setWorkspacesOpen] = createSignal(false);
  const [usageOpen, setUsageOpen] = createSignal(false);
  useAgentSwitchKeys(room);

  return (
    <Switch>
      <Match when={room.state().kind === "not_enrolled"}>
        <NotEnrolled refusal={enrollment()} state={room.state()} />
      </Match>
      <Match when={true}>
        <div class="room" data-drawer={drawerOpen() ? "open" : "closed"}>
          <header class="topbar">
            <button
              type="button"
              class="drawer-toggle"
              data-testid="drawer-toggle"
              aria-expanded={drawerOpen() ? "true" : "false"}
              aria-controls="agent-drawer"
              onClick={() => setDrawerOpen(!drawerOpen())}
            >
              Agents
              <Show when={needsYou.count() > 0}>
                <span class="needs-you count" data-testid="drawer-needs-you">
                  {needsYou.count()}
                </span>
              </Show>
            </button>
            <span class="brand">Shard</span>
            <span class="topbar-tools">
              <button
                type="button"
                data-testid="workspaces-toggle"
                aria-expanded={workspacesOpen() ? "true" : "false"}
                onClick={() => setWorkspacesOpen(!workspacesOpen())}
              >
                Workspaces
              </button>
              <button
                type="button"
                data-testid="usage-toggle"
                aria-expanded={usageOpen() ? "true" : "false"}
                onClick={() => setUsageOpen(!usageOpen())}
              >
                Usage
              </button>
              <NotifyToggle notifications={notifications} />
              <ThemeToggle theme={theme} />
              <ConnectionBadge room={room} />
            </span>
          </header>
          <aside class="sidebar" id="agent-drawer" data-testid="sidebar">
            <AgentList
              room={room}
              needsYou={needsYou}
              catalogs={catalogs}
              onOpen={() => setDrawerOpen(false)}
            />
          </aside>
          <main class="agent-pane">
            <FirstRun provider={provider} />
            <Show when={workspacesOpen()}>
              <WorkspacesPanel room={room} onClose={() => setWorkspacesOpen(false)} />
            </Show>
            <Show when={usageOpen()}>
              <UsagePanel room={room} onClose={() => setUsageOpen(false)} />
            </Show>
            <Show
              when={room.selected()}
              fallback={<p class="empty">Select an agent, or create one with a working directory.</p>}
            >
              {(agentId) => (
                <>
                  <AgentHeader
                    room={room}
                    agentId={agentId()}
                    catalogs={catalogs}
                    sessionsOpen={sessionsOpen()}
                    toggleSessions={() => setSessionsOpen(!sessionsOpen())}
                    changesOpen={changesOpen()}
                    toggleChanges={() => setChangesOpen(!changesOpen())}
                  />
                  <SandboxNotice room={room} agentId={agentId()} />
                  <Show when={changesOpen()}>
                    <ChangesPanel room={room} agentId={agentId()} onClose={() => setChangesOpen(false)} />
                  </Show>
                  <Show when={sessionsOpen()}>
                    <SessionsPanel room={room} agentId={agentId()} onClose={() => setSessionsOpen(false)} />
                  </Show>
                  <JobsPanel room={room} agentId={agentId()} />
                  <CompactionMarker room={room} agentId={agentId()} />
                  <Transcript room={room} agentId={agentId()} />
                  <PendingDialogs room={room} agentId={agentId()} />
                  <ModelProblem room={room} agentId={agentId()} catalogs={catalogs} />
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
