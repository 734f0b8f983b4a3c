/**
 * Shown at the head of the transcript once the agent's live window was compacted: older
 * messages were replaced by the summary that leads the window (the model can recall them).
 * The figures come with the window (`compaction_tokens`), so a page opened later shows them too.
 */
import { Show } from "solid-js";
import type { ControlRoom } from "../../state/control-room.ts";

export function CompactionMarker(props: { room: ControlRoom; agentId: string }) {
  const window = () => props.room.snapshot(props.agentId)()?.live_window;
  const index = () => window()?.compaction_index;
  return (
    <Show when={index() !== undefined}>
      <div class="compaction-marker" data-testid="compaction-marker" role="note">
        <span>Compacted (#{(index() ?? 0) + 1}): earlier messages are summarized below.</span>
        <Show when={window()?.compaction_tokens}>
          {(tokens) => (
            <span class="figures" data-testid="compaction-figures">
              {tokens().before.toLocaleString("en")} → {tokens().after.toLocaleString("en")} tokens
            </span>
          )}
        </Show>
      </div>
    </Show>
  );
}
