import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { compactSession } from "../../src/session/compaction/compact-session.ts";
import { createSession } from "../../src/session/create-session.ts";
import { forkSession } from "../../src/session/fork-session.ts";
import { windowEntriesAt } from "../../src/session/live-window.ts";
import { openSession } from "../../src/session/open-session.ts";
import type { ForkCheckpointEntry, SessionEntry } from "../../src/types/session-entries.ts";
import { appendTurn } from "./conversation.ts";
import { sha256, tempHome, userText } from "./helpers.ts";

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => cleanup());

describe("forkSession", () => {
  test("materializes the live window at an entry with fresh ids and provenance; the source is untouched", async () => {
    const store = createSession({ home, cwd: "/tmp/p" });
    store.append({ type: "mode_change", mode: "plan" });
    store.append({ type: "model_change", model: "openai/gpt" });
    store.append({ type: "reasoning_change", model: "openai/gpt", effort: "low" });
    for (let t = 1; t <= 4; t++) appendTurn(store, t);
    const result = await compactSession(store, { keepRecentTokens: 300 });
    expect("compacted" in result && result.compacted).toBe(true);
    appendTurn(store, 5);
    const forkAt = store.entries().at(-3) as SessionEntry;
    appendTurn(store, 6);
    store.append({ type: "mode_change", mode: "build" });

    const sourceFiles = readdirSync(dirname(store.path)).sort();
    const hash = sha256(store.path);
    const fork = forkSession(store, forkAt.id);
    if (!fork.ok) throw new Error(fork.error.message);
    expect(sha256(store.path)).toBe(hash);
    expect(readdirSync(dirname(store.path)).sort()).toEqual([...sourceFiles, "forks"].sort());
    expect(fork.path).toBe(join(dirname(store.path), "forks", fork.data.session_id, "session.jsonl"));
    expect(statSync(fork.path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(fork.path)).mode & 0o777).toBe(0o700);
    expect(fork.data.fork_id).toMatch(/^frk_/);
    expect(fork.data.session_id).toMatch(/^ses_/);

    const opened = openSession({ home, idOrPath: fork.data.session_id });
    if (!opened.ok) throw new Error(opened.error.message);
    const f = opened.store;
    expect(f.header.fork).toEqual({
      fork_id: fork.data.fork_id,
      source_session_id: store.sessionId,
      source_entry_id: forkAt.id,
    });
    expect(f.header.cwd).toBe(store.header.cwd);
    const [checkpoint] = f.entries();
    expect(checkpoint).toMatchObject({
      type: "checkpoint",
      parent_id: null,
      artifactKind: "fork",
      forkId: fork.data.fork_id,
      sourceSessionId: store.sessionId,
      sourceEntryId: forkAt.id,
    } satisfies Partial<ForkCheckpointEntry>);
    expect(f.headId()).toBe(fork.data.head_entry_id);

    // Fresh ids everywhere, re-linked chain.
    const sourceIds = new Set(store.entries().map((e) => e.id));
    for (const e of f.entries()) expect(sourceIds.has(e.id)).toBe(false);
    // Settings as they were at the fork point (the later mode change is not included).
    expect(f.state()).toEqual({ mode: "plan", model: "openai/gpt", reasoning: { "openai/gpt": "low" } });

    // Same conversation as the source's window at that entry, including the compaction summary.
    const at = store.entries().findIndex((e) => e.id === forkAt.id);
    const sourceWindow = windowEntriesAt(store.entries(), at);
    const forkWindow = f.liveWindow();
    expect(forkWindow.compaction_index).toBe(0);
    expect(forkWindow.messages.slice(1)).toEqual(sourceWindow.entries.map((e) => e.message));
    const summaryText = forkWindow.messages[0]?.content[0];
    expect(summaryText?.type === "text" && summaryText.text).toContain(
      sourceWindow.compaction?.summary as string,
    );

    // The fork is a normal session: appends continue its chain.
    const next = f.append(userText("on the fork"));
    expect(next.parent_id).toBe(fork.data.head_entry_id);
    f.close();
    store.close();
    expect(sha256(store.path)).toBe(hash);
  });

  test("forking before any compaction copies the chain up to the entry", () => {
    const store = createSession({ home, cwd: "/tmp/p" });
    appendTurn(store, 1);
    appendTurn(store, 2);
    const at = store.entries()[3] as SessionEntry;
    const fork = forkSession(store, at.id);
    if (!fork.ok) throw new Error(fork.error.message);
    const lines = readFileSync(fork.path, "utf8").trim().split("\n");
    expect(lines).toHaveLength(1 + 1 + 4);
    const copies = lines.slice(2).map((l) => JSON.parse(l) as SessionEntry);
    expect(copies.map((c) => (c.type === "message" || c.type === "tool_result" ? c.message : null))).toEqual(
      store
        .entries()
        .slice(0, 4)
        .map((e) => (e.type === "message" || e.type === "tool_result" ? e.message : null)),
    );
    store.close();
  });

  test("unknown entry is NOT_FOUND; an unwritable fork location is INTERNAL_ERROR", () => {
    const store = createSession({ home, cwd: "/tmp/p" });
    appendTurn(store, 1);
    const hash = sha256(store.path);
    const missing = forkSession(store, "ent_nope");
    expect(missing).toEqual({
      ok: false,
      error: {
        code: "NOT_FOUND",
        message: `no entry or message ent_nope in session ${store.sessionId}; fork at an id from sync.live_window or message_complete`,
      },
    });

    // A file where the forks/ directory should be makes the write fail.
    writeFileSync(join(dirname(store.path), "forks"), "in the way");
    const failed = forkSession(store, store.headId() as string);
    expect(failed.ok).toBe(false);
    if (!failed.ok) expect(failed.error.code).toBe("INTERNAL_ERROR");
    expect(sha256(store.path)).toBe(hash);
    store.close();
  });
});
