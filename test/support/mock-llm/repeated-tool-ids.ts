/**
 * A model server that repeats its tool-call ids, as some local servers do (they number calls
 * per response): two consecutive responses both call their tool `call_0`. Shared by the tests
 * that check every surface keeps the two calls apart.
 */
import type { MockReply } from "./types.ts";

export const REPEATED_TOOL_CALL_ID = "call_0";

/** `bash` that prints `listed` (the user allows it), then `rm -rf src` (the user denies it), then text. */
export function repeatedToolIdReplies(finalText = "done"): MockReply[] {
  const call = (command: string): MockReply => ({
    steps: [{ tool_call: { id: REPEATED_TOOL_CALL_ID, name: "bash", args: { command } } }],
  });
  return [call("echo listed"), call("rm -rf src"), { steps: [{ text: finalText }] }];
}

/** Every tool-call id in a request's history, on calls and on results alike, in any wire format. */
export function sentToolCallIds(body: Record<string, unknown>): string[] {
  const json = JSON.stringify(body.messages ?? body.input);
  return [...json.matchAll(/"(?:id|tool_use_id|tool_call_id|call_id)":"([^"]*)"/g)].map((m) => m[1] ?? "");
}
