/**
 * The selected agent's Changes (`agent.changes`): its working tree against what it was when the
 * agent started (or its workspace's base), file by file with the transcript's diff renderer,
 * asked again as the agent writes; then the same files turn by turn, from the checkpoints
 * (Undo to here). File names and lines are untrusted: text only, as everywhere.
 */
import { createResource, Show } from "solid-js";
import { failed, loaded } from "../../state/attempt.ts";
import type { ControlRoom } from "../../state/control-room.ts";
import { onlineKey } from "../../state/online-key.ts";
import { restoreCount } from "../checkpoints/checkpoint-list.ts";
import { TurnChanges } from "../checkpoints/turn-changes.tsx";
import { LoadError } from "../shell/load-error.tsx";
import { FileDiffList } from "../transcript/file-diff-list.tsx";
import { standaloneParts, TranscriptContext } from "../transcript/transcript-context.ts";
import { refreshOnChanges } from "./changes-refresh.ts";
import { changesSummary } from "./changes-summary.ts";
import "./changes.css";

export function ChangesPanel(props: { room: ControlRoom; agentId: string; onClose: () => void }) {
  const [changes, { refetch }] = createResource(
    // Asked again after a restore (Undo to here) from this page.
    () => {
      const key = onlineKey(props.room, props.agentId);
      return key === false ? false : ([...key, restoreCount()] as const);
    },
    ([agentId]) =>
      props.room.attempt(() => props.room.connection.call({ type: "agent.changes", agent_id: agentId })),
  );
  refreshOnChanges(
    props.room,
    () => props.agentId,
    () => void refetch(),
  );
  // Another agent's answer (kept while the newly selected one's loads) is never shown as this one's.
  const shown = () => {
    const c = loaded(changes());
    return c?.agent_id === props.agentId ? c : undefined;
  };
  // Kept across refreshes, so a diff the user expanded stays expanded.
  const parts = standaloneParts();
  return (
    <section class="changes-panel" data-testid="changes-panel" aria-label="changes">
      <div class="panel-header">
        <h2>Changes</h2>
        <span class="changes-tools">
          <Show when={changes.loading}>
            <span class="muted" data-testid="changes-loading">
              Updating…
            </span>
          </Show>
          <button type="button" data-testid="changes-refresh" onClick={() => void refetch()}>
            Refresh
          </button>
          <button type="button" data-testid="changes-close" onClick={() => props.onClose()}>
            Close
          </button>
        </span>
      </div>
      <Show when={failed(changes())}>{(error) => <LoadError what="The changes" error={error()} />}</Show>
      <Show
        when={shown()}
        fallback={
          <Show when={changes.loading}>
            <p class="muted">Loading the changes…</p>
          </Show>
        }
      >
        {(c) => (
          <TranscriptContext.Provider value={parts}>
            <p
              class={c().baseline.kind === "none" ? "changes-none" : "agent-meta"}
              data-testid={c().baseline.kind === "none" ? "changes-none" : "changes-summary"}
            >
              {changesSummary(c())}
            </p>
            <FileDiffList files={c().files} kind="changes" owner={props.agentId} />
          </TranscriptContext.Provider>
        )}
      </Show>
      <TranscriptContext.Provider value={parts}>
        <TurnChanges room={props.room} agentId={props.agentId} />
      </TranscriptContext.Provider>
    </section>
  );
}
