/**
 * The Changes view's per-turn breakdown: the same checkpoints as the transcript's markers,
 * newest first, each with its time, "N files changed", its diff and Undo to here. Inside the
 * view's TranscriptContext (standaloneParts) for the expanders.
 */
import { For, Show } from "solid-js";
import type { CheckpointSummary } from "../../../../src/types/checkpoints.ts";
import type { ControlRoom } from "../../state/control-room.ts";
import { changingCheckpoints, createCheckpointList } from "./checkpoint-list.ts";
import { CheckpointMarker } from "./checkpoint-marker.tsx";

export function TurnChanges(props: { room: ControlRoom; agentId: string }) {
  const list = createCheckpointList(props.room, () => props.agentId);
  const shown = () => changingCheckpoints(list.checkpoints());
  return (
    <section class="checkpoint-turns" data-testid="changes-turns" aria-label="changes by turn">
      <h3>By turn</h3>
      <Show
        when={shown().length > 0}
        fallback={<p class="muted">No turn has changed files yet (or the agent is not running).</p>}
      >
        <For each={shown()}>
          {(checkpoint) => (
            <CheckpointMarker
              room={props.room}
              agentId={props.agentId}
              list={list}
              checkpoint={checkpoint}
              label={labelOf(checkpoint)}
            />
          )}
        </For>
      </Show>
    </section>
  );
}

function labelOf(checkpoint: CheckpointSummary): string {
  const at = new Date(checkpoint.created_at).toLocaleTimeString();
  return checkpoint.turn_id === undefined ? `Restore at ${at}` : `Turn at ${at}`;
}
