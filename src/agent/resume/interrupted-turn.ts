/**
 * Failed and cut-off turns in the session (src/types/turn-failures.ts). A runtime records a
 * turn that failed, or that it had to stop when closed mid-turn; one killed mid-turn cannot,
 * so on resume a conversation that ends mid-turn (a user message or a tool call nobody
 * answered, with no failure recorded since) gets its `interrupted` entry then. It does not
 * restart the turn: the user retries.
 */
import type { NewEntry, SessionStore } from "../../contracts/session-store.ts";
import { isConversationEntry, turnFailureOf } from "../../session/live-window.ts";
import type { Message } from "../../types/messages.ts";
import type { SessionEntry, TurnFailureEntry } from "../../types/session-entries.ts";
import type { TurnFailure } from "../../types/turn-failures.ts";
import { unansweredToolCalls } from "./interrupted-tool-calls.ts";

export const INTERRUPTED_TURN_MESSAGE =
  "interrupted: the agent stopped (crash, kill or daemon exit) before this reply was complete";

type FailureFields = Omit<Extract<NewEntry, { type: "turn_failure" }>, "type">;

/** Appends a `turn_failure` entry; returns it as the live window shows it. */
export function recordTurnFailure(
  persist: (entry: NewEntry) => SessionEntry,
  failure: FailureFields,
): TurnFailure {
  const entry = persist({ type: "turn_failure", ...failure });
  if (entry.type !== "turn_failure") throw new Error("the session stored another entry");
  return turnFailureOf(entry);
}

/** Whether the newest turn ended without a reply and without a recorded failure. */
export function turnWasCutOff(session: SessionStore): boolean {
  const entries = session.entries();
  let last: SessionEntry | undefined;
  for (let i = entries.length - 1; i >= 0 && last === undefined; i--) {
    const entry = entries[i];
    if (entry === undefined || entry.type === "turn_failure") return false;
    if (isConversationEntry(entry)) last = entry;
  }
  if (last === undefined || !isConversationEntry(last)) return false;
  if (last.message.role === "user") return true;
  return unansweredToolCalls(session.liveWindow().messages).length > 0;
}

/** Records the cut-off turn (after the tool-call repair, so it is drawn after those results). */
export function recordInterruptedTurn(session: SessionStore): TurnFailureEntry {
  const messages = session.liveWindow().messages;
  const after = messages.at(-1)?.id;
  const prompt = lastPrompt(messages);
  const entry = session.append({
    type: "turn_failure",
    kind: "interrupted",
    code: "INTERNAL_ERROR",
    message: INTERRUPTED_TURN_MESSAGE,
    ...(after !== undefined ? { after_message_id: after } : {}),
    ...(prompt !== undefined ? { prompt_message_id: prompt } : {}),
  });
  if (entry.type !== "turn_failure") throw new Error("the session stored another entry");
  return entry;
}

/** The newest user message the user wrote (not a tool result, not a compaction summary). */
function lastPrompt(messages: readonly Message[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === "user" && m.content.some((b) => b.type === "text" || b.type === "image")) {
      // A compaction summary leads the window: it is not a prompt.
      return i === 0 && m.content[0]?.type === "text" && m.content[0].text.startsWith("[Context compacted]")
        ? undefined
        : m.id;
    }
  }
  return undefined;
}
