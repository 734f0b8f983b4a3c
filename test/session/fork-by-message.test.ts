/** A fork point given as a message id (what clients see) forks at the entry holding that message. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createSession } from "../../src/session/create-session.ts";
import { forkPointIndex, forkSession } from "../../src/session/fork-session.ts";
import { openSession } from "../../src/session/open-session.ts";
import type { SessionEntry } from "../../src/types/session-entries.ts";
import { assistantText, tempHome, toolResult, userText } from "./helpers.ts";

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => cleanup());

function messageIdOf(entry: SessionEntry): string {
  if (entry.type !== "message" && entry.type !== "tool_result")
    throw new Error(`${entry.type} has no message`);
  return entry.message.id;
}

describe("fork at a message id", () => {
  test("message, assistant and tool_result message ids resolve to their entries", () => {
    const store = createSession({ home, cwd: "/tmp/p" });
    const question = store.append(userText("alpha"));
    const call = store.append(assistantText("", [{ id: "c1", name: "ls", args: {} }]));
    const result = store.append(toolResult("c1", "a.txt"));
    store.append(assistantText("alpha answer"));
    store.append(userText("beta"));
    const entries = store.entries();
    for (const entry of [question, call, result]) {
      expect(forkPointIndex(entries, messageIdOf(entry))).toBe(entries.indexOf(entry));
      expect(forkPointIndex(entries, entry.id)).toBe(entries.indexOf(entry));
    }
    expect(forkPointIndex(entries, "msg_nope")).toBe(-1);

    const fork = forkSession(store, messageIdOf(result));
    if (!fork.ok) throw new Error(fork.error.message);
    store.close();
    const opened = openSession({ home, idOrPath: fork.data.session_id });
    if (!opened.ok) throw new Error(opened.error.message);
    // Provenance names the entry, not the message id the client gave.
    expect(opened.store.header.fork?.source_entry_id).toBe(result.id);
    expect(opened.store.liveWindow().messages.map((m) => m.id)).toEqual([
      messageIdOf(question),
      messageIdOf(call),
      messageIdOf(result),
    ]);
    opened.store.close();
  });

  test("an unknown message id is NOT_FOUND and says which ids work", () => {
    const store = createSession({ home, cwd: "/tmp/p" });
    store.append(userText("alpha"));
    const missing = forkSession(store, "msg_nope");
    expect(!missing.ok && missing.error.code).toBe("NOT_FOUND");
    expect(!missing.ok && missing.error.message).toContain("sync.live_window or message_complete");
    store.close();
  });
});
