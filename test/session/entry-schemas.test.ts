/**
 * Every line of a session file is checked against its TypeBox schema on open
 * (src/types/session-entries.ts): a line that is valid JSON but not a valid header or entry is
 * SESSION_CORRUPT naming the line and the failing field, and the file is left alone.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { createSession } from "../../src/session/create-session.ts";
import { listSessions } from "../../src/session/list-sessions.ts";
import { openSession } from "../../src/session/open-session.ts";
import { assistantText, tempHome, toolResult, userText } from "./helpers.ts";

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => cleanup());

/** A session of one of each common entry, as the runtime writes them. */
function sampleSession(): { id: string; path: string; lines: Record<string, unknown>[] } {
  const store = createSession({ home, cwd: "/tmp/p", mode: "build", model: "mock/chat" });
  store.append(userText("question")); // line 2
  store.append(assistantText("", [{ id: "c1", name: "ls", args: { path: "." } }])); // line 3
  store.append(toolResult("c1", "a.txt")); // line 4
  store.append({ type: "mode_change", mode: "plan" }); // line 5
  store.append({
    type: "compaction",
    index: 0,
    summary: "s",
    first_kept_entry_id: store.entries()[2]?.id as string,
    message_range: [store.entries()[0]?.id as string, store.entries()[1]?.id as string],
    tokens_before: 10,
    tokens_after: 2,
  }); // line 6
  store.close();
  const lines = readFileSync(store.path, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
  return { id: store.sessionId, path: store.path, lines };
}

/** Rewrites line `lineNo` (1-based) as `value`, opens the session and returns its error message. */
function corruptWith(lineNo: number, edit: (line: Record<string, unknown>) => unknown): string {
  const { id, path, lines } = sampleSession();
  const copy = structuredClone(lines);
  copy[lineNo - 1] = edit(copy[lineNo - 1] as Record<string, unknown>) as Record<string, unknown>;
  const text = `${copy.map((l) => JSON.stringify(l)).join("\n")}\n`;
  writeFileSync(path, text);
  const opened = openSession({ home, idOrPath: id });
  if (opened.ok) {
    opened.store.close();
    throw new Error(`line ${lineNo} was accepted`);
  }
  expect(opened.error.code).toBe("SESSION_CORRUPT");
  expect(readFileSync(path, "utf8")).toBe(text);
  return opened.error.message;
}

describe("session line schemas", () => {
  test("every entry the store writes passes its schema", () => {
    const { id } = sampleSession();
    const opened = openSession({ home, idOrPath: id });
    if (!opened.ok) throw new Error(opened.error.message);
    expect(opened.store.entries().map((e) => e.type)).toEqual([
      "message",
      "message",
      "tool_result",
      "mode_change",
      "compaction",
    ]);
    opened.store.close();
  });

  test("a content block of the wrong shape names the line and the field", () => {
    const message = corruptWith(2, (line) => {
      const m = line.message as { content: { text: unknown }[] };
      m.content[0] = { ...m.content[0], text: 42 };
      return line;
    });
    expect(message).toContain('line 2: message entry: field "message.content.0');
  });

  test("a tool call whose args are not an object is refused", () => {
    const message = corruptWith(3, (line) => {
      const m = line.message as { content: { args: unknown }[] };
      m.content[0] = { ...m.content[0], args: "ls ." };
      return line;
    });
    expect(message).toContain('line 3: message entry: field "message.content.0');
  });

  test("a tool result whose content kind is unknown is refused", () => {
    const message = corruptWith(4, (line) => {
      const m = line.message as { content: { content: unknown }[] };
      m.content[0] = { ...m.content[0], content: { kind: "blob", bytes: 1 } };
      return line;
    });
    expect(message).toContain('line 4: tool_result entry: field "message.content.0');
  });

  test("a missing or mistyped payload field is named", () => {
    expect(corruptWith(5, ({ mode: _m, ...rest }) => rest)).toContain(
      'line 5: mode_change entry: field "mode": Expected required property (missing)',
    );
    expect(corruptWith(6, ({ tokens_before: _t, ...rest }) => rest)).toContain(
      'line 6: compaction entry: field "tokens_before"',
    );
    expect(corruptWith(6, (line) => ({ ...line, message_range: ["only one"] }))).toContain(
      'line 6: compaction entry: field "message_range"',
    );
    expect(corruptWith(3, (line) => ({ ...line, ts: "yesterday" }))).toContain(
      'line 3: message entry: field "ts": Expected number',
    );
  });

  test("a header field of the wrong type is named at line 1; listing skips that session", () => {
    const message = corruptWith(1, (line) => ({ ...line, model: 5 }));
    expect(message).toContain('line 1: header: field "model": Expected string');
    const warnings: string[] = [];
    expect(listSessions(home, "/tmp/p", (w) => warnings.push(w.message))).toEqual([]);
    expect(warnings.join("\n")).toContain('field "model"');
  });

  test("an extra field (written by a newer version) is kept and the session opens", () => {
    const { id, path, lines } = sampleSession();
    const withExtra = lines.map((l, i) => (i === 2 ? { ...l, later_field: { x: 1 } } : l));
    writeFileSync(path, `${withExtra.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const opened = openSession({ home, idOrPath: id });
    if (!opened.ok) throw new Error(opened.error.message);
    expect(opened.store.entries()[1]).toMatchObject({ later_field: { x: 1 } });
    opened.store.close();
  });
});
