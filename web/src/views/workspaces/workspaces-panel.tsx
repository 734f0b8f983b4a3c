/**
 * The daemon's workspaces (one git worktree and branch per agent), grouped by project: create
 * one with a fresh agent, and retire one safely. A retire that would delete unmerged commits
 * asks first; any other refusal (busy, live, dirty, …) is shown with the daemon's reason.
 * Paths, labels and branches are shown as text only.
 */
import { createResource, createSignal, For, Show } from "solid-js";
import type {
  WorkspaceRetireConflict,
  WorkspaceSummary,
} from "../../../../src/types/workspace-projection.ts";
import { failed, loaded } from "../../state/attempt.ts";
import type { ControlRoom } from "../../state/control-room.ts";
import { LoadError } from "../shell/load-error.tsx";
import { byRepository, createWorkspace, listWorkspaces, retireWorkspace } from "./workspace-actions.ts";
import { WorkspaceReview } from "./workspace-review.tsx";
import "./workspaces.css";

export function WorkspacesPanel(props: { room: ControlRoom; onClose: () => void }) {
  const [workspaces, { refetch }] = createResource(
    () => props.room.online(),
    () => props.room.attempt(() => listWorkspaces(props.room)),
  );
  const [cwd, setCwd] = createSignal("");
  const [label, setLabel] = createSignal("");
  const [busy, setBusy] = createSignal(false);
  const [said, setSaid] = createSignal("");
  const [confirming, setConfirming] = createSignal<WorkspaceRetireConflict | undefined>();
  const [reviewing, setReviewing] = createSignal<string | undefined>();

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setSaid("");
    await props.room.run(work);
    setBusy(false);
    void refetch();
  };
  const create = (event: SubmitEvent) => {
    event.preventDefault();
    if (cwd().trim() === "") return;
    void act(async () => {
      props.room.select(await createWorkspace(props.room, cwd().trim(), label().trim()));
      setLabel("");
    });
  };
  const retire = (ws: WorkspaceSummary, disposition: "delete_if_merged" | "keep" | "delete_confirmed") =>
    act(async () => {
      setConfirming(undefined);
      const outcome = await retireWorkspace(props.room, ws.workspace_id, disposition);
      if (outcome.kind === "retired") {
        setSaid(
          `Retired ${ws.label}${outcome.branchDeleted ? `; branch ${ws.branch} deleted` : `; branch ${ws.branch} kept`}.`,
        );
      } else if (outcome.refusal.kind === "confirmation_required") {
        setConfirming(outcome.refusal);
      } else {
        setSaid(`Not retired: ${outcome.refusal.reason}`);
      }
    });

  return (
    <section class="panel workspaces-panel" aria-label="workspaces" data-testid="workspaces-panel">
      <header class="panel-header">
        <h2>Workspaces</h2>
        <button type="button" class="link" onClick={() => props.onClose()}>
          Close
        </button>
      </header>
      <form class="create-workspace" onSubmit={create}>
        <input
          aria-label="project directory"
          placeholder="/path/to/git/checkout"
          value={cwd()}
          onInput={(e) => setCwd(e.currentTarget.value)}
          spellcheck={false}
        />
        <input
          aria-label="workspace label"
          placeholder="label (optional)"
          value={label()}
          onInput={(e) => setLabel(e.currentTarget.value)}
        />
        <button type="submit" disabled={busy() || cwd().trim() === ""}>
          New workspace
        </button>
      </form>
      <Show when={said() !== ""}>
        <p class="muted" data-testid="workspaces-said">
          {said()}
        </p>
      </Show>
      <Show when={failed(workspaces())}>
        {(error) => <LoadError what="The workspaces" error={error()} />}
      </Show>
      <For
        each={byRepository(loaded(workspaces()) ?? [])}
        fallback={
          <Show when={loaded(workspaces()) !== undefined}>
            <p class="muted">No workspaces yet.</p>
          </Show>
        }
      >
        {([repository, list]) => (
          <div class="workspace-group" data-testid="workspace-group">
            <h3 class="path">{repository}</h3>
            <ul>
              <For each={list}>
                {(ws) => (
                  <li class="workspace-row" data-testid="workspace-row" data-workspace-id={ws.workspace_id}>
                    <span class="agent-name">{ws.label}</span>
                    <span class="agent-meta">
                      {ws.branch} → {ws.integration_target} · {ws.counts.agents} agent(s)
                    </span>
                    <span class="agent-meta path">{ws.cwd}</span>
                    <Show
                      when={confirming()?.workspace_id === ws.workspace_id ? confirming() : undefined}
                      fallback={
                        <span class="choices">
                          <button
                            type="button"
                            aria-expanded={reviewing() === ws.workspace_id ? "true" : "false"}
                            onClick={() =>
                              setReviewing(reviewing() === ws.workspace_id ? undefined : ws.workspace_id)
                            }
                          >
                            Review
                          </button>
                          <button
                            type="button"
                            disabled={busy()}
                            onClick={() => void retire(ws, "delete_if_merged")}
                          >
                            Retire
                          </button>
                          <button type="button" disabled={busy()} onClick={() => void retire(ws, "keep")}>
                            Retire, keep branch
                          </button>
                        </span>
                      }
                    >
                      {(refusal) => (
                        <span class="confirm" data-testid="retire-confirm">
                          <span>{refusal().reason}. Delete the branch anyway?</span>
                          <button
                            type="button"
                            class="danger"
                            onClick={() => void retire(ws, "delete_confirmed")}
                          >
                            Delete branch
                          </button>
                          <button type="button" onClick={() => setConfirming(undefined)}>
                            Cancel
                          </button>
                        </span>
                      )}
                    </Show>
                    <Show when={reviewing() === ws.workspace_id}>
                      <WorkspaceReview room={props.room} workspaceId={ws.workspace_id} />
                    </Show>
                  </li>
                )}
              </For>
            </ul>
          </div>
        )}
      </For>
    </section>
  );
}
