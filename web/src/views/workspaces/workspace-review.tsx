/**
 * A workspace branch's committed work against its base (`workspace.diff`), drawn with the
 * transcript's diff renderer, so a user can review before retiring. File names and lines are
 * untrusted: text only, as everywhere.
 */
import { createResource, Show } from "solid-js";
import { failed, loaded } from "../../state/attempt.ts";
import type { ControlRoom } from "../../state/control-room.ts";
import { LoadError } from "../shell/load-error.tsx";
import { FileDiffList } from "../transcript/file-diff-list.tsx";
import { standaloneParts, TranscriptContext } from "../transcript/transcript-context.ts";

export function WorkspaceReview(props: { room: ControlRoom; workspaceId: string }) {
  const [diff] = createResource(
    () => props.workspaceId,
    (workspaceId) =>
      props.room.attempt(() =>
        props.room.connection.call({ type: "workspace.diff", workspace_id: workspaceId }),
      ),
  );
  const parts = standaloneParts();
  return (
    <div class="workspace-review" data-testid="workspace-review">
      <Show when={failed(diff())}>{(error) => <LoadError what="The diff" error={error()} />}</Show>
      <Show
        when={loaded(diff())}
        fallback={
          <Show when={diff.loading}>
            <p class="muted">Loading the diff…</p>
          </Show>
        }
      >
        {(d) => (
          <TranscriptContext.Provider value={parts}>
            <p class="agent-meta">
              {d().files.length} file(s) changed on {d().branch} since it left {d().integration_target}
              {d().truncated ? " (the diff is cut: it is larger than the daemon returns)" : ""}
            </p>
            <FileDiffList files={d().files} kind="review" owner={props.workspaceId} />
          </TranscriptContext.Provider>
        )}
      </Show>
    </div>
  );
}
