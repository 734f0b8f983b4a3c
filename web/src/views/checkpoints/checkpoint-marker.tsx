/**
 * One checkpoint's turn: "N files changed", its diff on request (`checkpoint_diff`, drawn with
 * the transcript's diff renderer and its bounds on long content), and Undo to here, which asks
 * first, and asks again naming the files the person changed since before overwriting them.
 * Disabled while a turn runs (the runtime refuses a restore then). Paths are untrusted: text.
 */
import { createResource, For, Match, Show, Switch } from "solid-js";
import type { CheckpointSummary } from "../../../../src/types/checkpoints.ts";
import { failed, loaded } from "../../state/attempt.ts";
import type { ControlRoom } from "../../state/control-room.ts";
import { FileDiffList } from "../transcript/file-diff-list.tsx";
import { useTranscript } from "../transcript/transcript-context.ts";
import { type CheckpointList, filesChangedLabel } from "./checkpoint-list.ts";
import { undoToCheckpoint } from "./undo-checkpoint.ts";
import "./checkpoints.css";

export function CheckpointMarker(props: {
  room: ControlRoom;
  agentId: string;
  list: CheckpointList;
  checkpoint: CheckpointSummary;
  /** Said before the count (the Changes view names the turn's time). */
  label?: string;
}) {
  const { expansions } = useTranscript();
  const id = () => props.checkpoint.checkpoint_id;
  const openKey = () => `checkpoint-open:${props.agentId}:${id()}`;
  const open = () => expansions.isOpen(openKey(), false);
  const [diff] = createResource(
    () => (open() ? ([props.agentId, id(), props.checkpoint.files_changed] as const) : false),
    ([agentId, checkpointId]) =>
      props.room.attempt(
        () =>
          props.room.connection.call({
            type: "checkpoint_diff",
            agent_id: agentId,
            checkpoint_id: checkpointId,
          }),
        agentId,
      ),
  );
  const busy = () => {
    const s = props.room.snapshot(props.agentId)();
    return s === undefined || s.turn_id !== undefined || (s.status !== "idle" && s.status !== "error");
  };
  const state = () => props.list.undoState(id());
  const set = (next: Parameters<CheckpointList["setUndoState"]>[1]) => props.list.setUndoState(id(), next);
  const undo = (force: boolean) => void undoToCheckpoint(props.room, props.list, props.agentId, id(), force);
  const what = () => (props.checkpoint.turn_id === undefined ? "this restore" : "this turn");
  return (
    <div class="checkpoint-marker" data-testid="checkpoint-marker" data-checkpoint-id={id()}>
      <div class="checkpoint-head">
        <span class="checkpoint-count" data-testid="checkpoint-count">
          {props.label !== undefined ? `${props.label} · ` : ""}
          {filesChangedLabel(props.checkpoint.files_changed)}
        </span>
        <button
          type="button"
          class="link"
          data-testid="checkpoint-diff-toggle"
          aria-expanded={open()}
          onClick={() => expansions.set(openKey(), !open())}
        >
          {open() ? "Hide diff" : "Show diff"}
        </button>
        <button
          type="button"
          data-testid="checkpoint-undo"
          disabled={
            busy() || state().kind === "sending" || state().kind === "confirm" || state().kind === "conflict"
          }
          title={
            busy()
              ? "Wait for the turn to end"
              : `Put the files back as they were before ${what()} (later changes are undone too)`
          }
          onClick={() => set({ kind: "confirm" })}
        >
          Undo to here
        </button>
      </div>
      <Switch>
        <Match when={state().kind === "confirm"}>
          <fieldset class="checkpoint-ask" data-testid="checkpoint-confirm">
            <legend>Undo to here?</legend>
            <p>
              Put every file back as it was before {what()}? Changes made after it, by later turns too, are
              undone. The restore can itself be undone.
            </p>
            <button
              type="button"
              data-testid="checkpoint-confirm-yes"
              disabled={busy()}
              onClick={() => undo(false)}
            >
              Undo to here
            </button>
            <button type="button" data-testid="checkpoint-cancel" onClick={() => set({ kind: "cancelled" })}>
              Cancel
            </button>
          </fieldset>
        </Match>
        <Match when={state().kind === "sending"}>
          <p class="muted" role="status" data-testid="checkpoint-outcome">
            Restoring…
          </p>
        </Match>
        <Match when={conflictFiles(state())}>
          {(files) => (
            <fieldset class="checkpoint-ask" data-testid="checkpoint-conflict">
              <legend>Overwrite these?</legend>
              <p>These files were changed since the agent's last turn; undoing would overwrite them:</p>
              <ul data-testid="checkpoint-conflicts">
                <For each={files()}>{(path) => <li class="tx-path">{path}</li>}</For>
              </ul>
              <button
                type="button"
                data-testid="checkpoint-overwrite"
                disabled={busy()}
                onClick={() => undo(true)}
              >
                Overwrite
              </button>
              <button
                type="button"
                data-testid="checkpoint-cancel"
                onClick={() => set({ kind: "cancelled" })}
              >
                Cancel
              </button>
            </fieldset>
          )}
        </Match>
        <Match when={doneFiles(state())}>
          {(files) => (
            <p role="status" class="checkpoint-done" data-testid="checkpoint-outcome">
              Restored: the files are as they were before {what()}
              {files().length === 0 ? " (no file differed)." : ` (${files().join(", ")}).`}
            </p>
          )}
        </Match>
        <Match when={state().kind === "cancelled"}>
          <p role="status" class="muted" data-testid="checkpoint-outcome">
            Not restored; your files are as they were.
          </p>
        </Match>
        <Match when={failedMessage(state())}>
          {(message) => (
            <p role="alert" class="checkpoint-failed" data-testid="checkpoint-outcome">
              Not restored: {message()}
            </p>
          )}
        </Match>
      </Switch>
      <Show when={open()}>
        <Show when={failed(diff())}>
          {(error) => (
            <p role="alert" class="checkpoint-failed">
              The diff could not be loaded: {error()}
            </p>
          )}
        </Show>
        <Show
          when={loaded(diff())}
          fallback={
            <Show when={diff.loading}>
              <p class="muted">Loading the diff…</p>
            </Show>
          }
        >
          {(d) => (
            <div class="checkpoint-diff" data-testid="checkpoint-diff">
              <Show when={d().truncated}>
                <p class="checkpoint-cut" data-testid="checkpoint-diff-cut">
                  Too large to show whole: only the first {d().files.length} files are shown.
                </p>
              </Show>
              <FileDiffList files={d().files} kind="checkpoint" owner={`${props.agentId}:${id()}`} />
            </div>
          )}
        </Show>
      </Show>
    </div>
  );
}

function conflictFiles(state: ReturnType<CheckpointList["undoState"]>): readonly string[] | false {
  return state.kind === "conflict" ? state.files : false;
}

function doneFiles(state: ReturnType<CheckpointList["undoState"]>): readonly string[] | false {
  return state.kind === "done" ? state.files : false;
}

function failedMessage(state: ReturnType<CheckpointList["undoState"]>): string | false {
  return state.kind === "failed" ? state.message : false;
}
