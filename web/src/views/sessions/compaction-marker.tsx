/**
 * Shown at the head of the transcript once the agent's live window was compacted: older
 * messages were replaced by the summary that leads the window (the model can recall them).
 */
import { Show } from "solid-js";
import type { ControlRoom } from "../../state/control-room.ts";
import type { CompactionFigures } from "./compactions.ts";

export function CompactionMarker(props: {
  room: ControlRoom;
  agentId: string;
  figures: Record<string, CompactionFigures>;
}) {
  const index = () => props.room.snapshot(props.agentId)()?.live_window.compaction_index;
  const known = () => {
    const f = props.figures[props.agentId];
    return f !== undefined && f.index === index() ? f : undefined;
  };
  return (
    <Show when={index() !== undefined}>
      <div class="compaction-marker" data-testid="compaction-marker" role="note">
        <span>Compacted (#{(index() ?? 0) + 1}): earlier messages are summarized below.</span>
        <Show when={known()}>
          {(f) => (
            <span class="figures" data-testid="compaction-figures">
              {f().tokens_before.toLocaleString("en")} → {f().tokens_after.toLocaleString("en")} tokens
            </span>
          )}
        </Show>
      </div>
    </Show>
  );
}
