import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { createSession } from "../../src/session/create-session.ts";
import { openSession } from "../../src/session/open-session.ts";
import { assistantText, tempHome, toolResult, userText } from "./helpers.ts";

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => cleanup());

describe("create, append, reopen", () => {
  test("entries round-trip with prefixed ids, a parent chain and private permissions", () => {
    const store = createSession({ home, cwd: "/tmp/project" });
    expect(store.sessionId).toMatch(/^ses_[A-Za-z0-9_-]+$/);
    expect(store.path).toBe(`${home}/sessions/${store.sessionId}/session.jsonl`);
    expect(store.headId()).toBeNull();

    const a = store.append(userText("hello"));
    const b = store.append(assistantText("", [{ id: "call_1", name: "read", args: { path: "a.ts" } }]));
    const c = store.append(toolResult("call_1", "contents"));
    store.append({ type: "mode_change", mode: "plan" });
    store.append({ type: "model_change", model: "anthropic/claude" });
    store.append({ type: "reasoning_change", model: "anthropic/claude", effort: "high" });
    expect(a.id).toMatch(/^ent_[A-Za-z0-9_-]+$/);
    expect([a.parent_id, b.parent_id, c.parent_id]).toEqual([null, a.id, b.id]);
    const written = store.entries().map((e) => e.id);
    store.close();

    const lines = readFileSync(store.path, "utf8").split("\n");
    expect(lines.at(-1)).toBe("");
    expect(Object.keys(JSON.parse(lines[1] as string)).slice(0, 4)).toEqual([
      "id",
      "parent_id",
      "type",
      "ts",
    ]);
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(store.path)).mode & 0o777).toBe(0o700);

    const reopened = openSession({ home, idOrPath: store.sessionId });
    if (!reopened.ok) throw new Error(reopened.error.message);
    const again = reopened.store;
    expect(again.header).toEqual(store.header);
    expect(again.entries().map((e) => e.id)).toEqual(written);
    expect(again.entries()).toEqual(store.entries());
    expect(again.state()).toEqual({
      mode: "plan",
      model: "anthropic/claude",
      reasoning: { "anthropic/claude": "high" },
    });
    expect(again.liveWindow().messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(again.liveWindow().compaction_index).toBeUndefined();

    const d = again.append(userText("more"));
    expect(d.parent_id).toBe(written.at(-1) as string);
    again.close();
    const third = openSession({ home, idOrPath: store.path });
    if (!third.ok) throw new Error(third.error.message);
    expect(third.store.headId()).toBe(d.id);
    third.store.close();
  });

  test("store-owned fields cannot be overridden by the payload", () => {
    const store = createSession({ home, cwd: "/tmp/p" });
    const first = store.append(userText("one"));
    const forged = { ...userText("two"), id: "ent_forged", parent_id: "ent_other", ts: 1 } as never;
    const second = store.append(forged);
    expect(second.id).not.toBe("ent_forged");
    expect(second.parent_id).toBe(first.id);
    store.close();
    const reopened = openSession({ home, idOrPath: store.sessionId });
    expect(reopened.ok).toBe(true);
    if (reopened.ok) reopened.store.close();
  });

  test("entries larger than the read chunk (multi-MB, multi-byte text) round-trip", () => {
    const store = createSession({ home, cwd: "/tmp/p" });
    const huge = "äöü 🙂 line\n".repeat(250_000); // ~3.5 MB, several read chunks
    store.append(userText("first"));
    const big = store.append(userText(huge));
    store.append(userText("last"));
    store.close();
    const reopened = openSession({ home, idOrPath: store.sessionId });
    if (!reopened.ok) throw new Error(reopened.error.message);
    expect(reopened.store.entries()).toEqual(store.entries());
    expect(reopened.store.entries()[1]).toEqual(big);
    reopened.store.close();
  });

  test("fsync mode writes the same file", () => {
    const store = createSession({ home, cwd: "/tmp/p", fsync: true });
    for (let i = 0; i < 5; i++) store.append(userText(`m${i}`));
    store.close();
    const reopened = openSession({ home, idOrPath: store.sessionId, fsync: true });
    if (!reopened.ok) throw new Error(reopened.error.message);
    expect(reopened.store.entries()).toHaveLength(5);
    reopened.store.close();
  });

  test("unknown ids, traversal attempts and missing paths are NOT_FOUND; closed stores refuse appends", () => {
    for (const idOrPath of ["ses_doesnotexist", "../../etc/passwd", "ses_../../x", `${home}/nope.jsonl`]) {
      const result = openSession({ home, idOrPath });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe("NOT_FOUND");
    }
    const store = createSession({ home, cwd: "/tmp/p" });
    store.close();
    expect(() => store.append(userText("late"))).toThrow(/closed/);
  });
});
