/**
 * The newest compaction of each attached agent with its token figures, from the `compaction`
 * event (whoever asked for it: this page, another client, or the automatic tiers). The live
 * window only records that one happened (`compaction_index`), so figures are known for the
 * compactions this page saw.
 */
import { onCleanup } from "solid-js";
import { createStore } from "solid-js/store";
import type { ControlRoom } from "../../state/control-room.ts";

export interface CompactionFigures {
  index: number;
  tokens_before: number;
  tokens_after: number;
}

export function createCompactions(room: ControlRoom): Record<string, CompactionFigures> {
  const [figures, setFigures] = createStore<Record<string, CompactionFigures>>({});
  const stop = room.onAgentEvent((agentId, event) => {
    if (event.type !== "compaction") return;
    setFigures(agentId, {
      index: event.index,
      tokens_before: event.tokens_before,
      tokens_after: event.tokens_after,
    });
  });
  onCleanup(stop);
  return figures;
}
