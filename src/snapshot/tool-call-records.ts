/**
 * The per-call records of the snapshot: what `tool_call`, `tool_output` and `tool_result` say
 * about a call beyond the messages (its render descriptors, timing, live output), kept for the
 * calls of the live window so `sync` can show a call the way the live events did. Bounded: a
 * compaction drops the records of the calls it summarized, at most MAX_TOOL_CALL_RECORDS are
 * kept, and a running call keeps only the tail of its live output.
 */
import type { LiveWindow, ToolCallRecord } from "../types/agent-events.ts";
import type { ToolCallEvent, ToolOutputEvent, ToolResultEvent } from "../types/stream-events.ts";

export const MAX_TOOL_CALL_RECORDS = 500;
export const LIVE_OUTPUT_TAIL_CHARS = 8_000;

type Records = readonly ToolCallRecord[] | undefined;

export function recordCall(records: Records, event: ToolCallEvent): ToolCallRecord[] {
  return upsert(records, event.tool_call_id, (record) => ({
    ...record,
    name: event.name,
    ...(event.read_only !== undefined ? { read_only: event.read_only } : {}),
    ...(event.render !== undefined ? { call_render: event.render } : {}),
  }));
}

/** `undefined`: nothing changes (output of a call this projection never saw start). */
export function recordOutput(records: Records, event: ToolOutputEvent): ToolCallRecord[] | undefined {
  if (records === undefined || indexOf(records, event.tool_call_id) < 0) return undefined;
  return upsert(records, event.tool_call_id, (record) => ({
    ...record,
    live_output: tail((record.live_output ?? "") + event.text_delta),
  }));
}

export function recordResult(records: Records, event: ToolResultEvent): ToolCallRecord[] {
  return upsert(records, event.tool_call_id, (record) => {
    const { live_output: _done, ...rest } = record;
    return {
      ...rest,
      ...(event.render !== undefined ? { result_render: event.render } : {}),
      ...(event.exit_code !== undefined ? { exit_code: event.exit_code } : {}),
      ...(event.duration_ms !== undefined ? { duration_ms: event.duration_ms } : {}),
      ...(event.sandbox !== undefined ? { sandbox: event.sandbox } : {}),
    };
  });
}

/** Keeps the records of calls the window still shows (after a compaction replaced a span). */
export function recordsInWindow(records: Records, window: LiveWindow): ToolCallRecord[] {
  if (records === undefined || records.length === 0) return [];
  const shown = new Set<string>();
  for (const message of window.messages) {
    for (const block of message.content) {
      if (block.type === "tool_call") shown.add(block.id);
      else if (block.type === "tool_result") shown.add(block.tool_call_id);
    }
  }
  return records.filter((r) => shown.has(r.tool_call_id));
}

function upsert(
  records: Records,
  id: string,
  change: (record: ToolCallRecord) => ToolCallRecord,
): ToolCallRecord[] {
  const next = records?.slice() ?? [];
  const at = indexOf(next, id);
  if (at >= 0) {
    next[at] = change(next[at] ?? { tool_call_id: id });
    return next;
  }
  next.push(change({ tool_call_id: id }));
  return next.length > MAX_TOOL_CALL_RECORDS ? next.slice(-MAX_TOOL_CALL_RECORDS) : next;
}

/** From the newest end: the call being updated is almost always one of the last. */
function indexOf(records: readonly ToolCallRecord[], id: string): number {
  for (let i = records.length - 1; i >= 0; i--) if (records[i]?.tool_call_id === id) return i;
  return -1;
}

function tail(text: string): string {
  return text.length > LIVE_OUTPUT_TAIL_CHARS ? text.slice(-LIVE_OUTPUT_TAIL_CHARS) : text;
}
