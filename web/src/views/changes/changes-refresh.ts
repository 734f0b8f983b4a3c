/**
 * When the Changes view asks again: after a tool that may write (its `tool_call` did not say
 * `read_only`) has finished, and at each turn's end, coalesced so a burst of edits costs one
 * ask. The ids of the calls in flight are all it keeps, and never more than MAX_CALLS.
 */
import { onCleanup } from "solid-js";
import type { ControlRoom } from "../../state/control-room.ts";

/** Edits a few ms apart are one refresh; the daemon coalesces overlapping asks too. */
const SETTLE_MS = 250;
const MAX_CALLS = 256;

export function refreshOnChanges(room: ControlRoom, agentId: () => string, refresh: () => void): void {
  const writing = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const soon = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      refresh();
    }, SETTLE_MS);
  };
  const stop = room.onAgentEvent((id, event) => {
    if (id !== agentId()) return;
    if (event.type === "tool_call" && event.read_only !== true) {
      if (writing.size >= MAX_CALLS) writing.clear();
      writing.add(event.tool_call_id);
    } else if (event.type === "tool_result" && writing.delete(event.tool_call_id)) {
      soon();
    } else if (event.type === "turn_end") {
      writing.clear();
      soon();
    }
  });
  onCleanup(() => {
    stop();
    if (timer !== undefined) clearTimeout(timer);
  });
}
