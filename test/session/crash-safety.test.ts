import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSession } from "../../src/session/create-session.ts";
import { openSession } from "../../src/session/open-session.ts";
import type { SessionWarning } from "../../src/session/session-warning.ts";
import { lineReader, spawnFixture, tempHome, userText } from "./helpers.ts";

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => cleanup());

function sessionWith(count: number): { id: string; path: string } {
  const store = createSession({ home, cwd: "/tmp/p" });
  for (let i = 0; i < count; i++) store.append(userText(`message ${i}`));
  store.close();
  return { id: store.sessionId, path: store.path };
}

/** Polls `done` with this thread blocked (no I/O is serviced meanwhile), at most `limitMs`. */
function blockUntil(done: () => boolean, limitMs: number): void {
  const deadline = Date.now() + limitMs;
  while (!done() && Date.now() < deadline) Bun.sleepSync(5);
}

/** Whether a child still runs; `ps` sees an unreaped dead child as a zombie (state Z). */
function isRunning(pid: number): boolean {
  const ps = Bun.spawnSync(["ps", "-o", "stat=", "-p", String(pid)]);
  const state = new TextDecoder().decode(ps.stdout).trim();
  return state !== "" && !state.startsWith("Z");
}

function replaceLine(path: string, lineNo: number, text: string): void {
  const lines = readFileSync(path, "utf8").split("\n");
  lines[lineNo - 1] = text;
  writeFileSync(path, lines.join("\n"));
}

describe("crash safety", () => {
  test("kill -9 mid-append while the reader lags: every acknowledged entry survives and the session opens", async () => {
    const fullNotice = join(home, "stdout-was-full");
    const child = spawnFixture("append-loop.ts", [home, "/tmp/p", fullNotice]);
    const out = lineReader(child.stdout, { name: "append-loop.ts", stderr: child.stderr });
    // Fall behind on purpose: this thread blocks, so nothing drains the pipe, until the child
    // reports that it met a full pipe (or it is gone: a writer that dies of EAGAIN never reports).
    blockUntil(() => existsSync(fullNotice) || !isRunning(child.pid), 20_000);
    const first = await out.until((l) => l.startsWith("session "));
    const sessionId = first.slice("session ".length);
    // It carried on past the full pipe: 400 more appends, then it dies without warning mid-loop.
    const outBeforeFull = existsSync(fullNotice) ? Number(readFileSync(fullNotice, "utf8")) : 0;
    await out.until(() => out.lines.length > outBeforeFull + 400, "400 more ids after the pipe was full");
    expect(existsSync(fullNotice)).toBe(true);
    child.kill(9);
    await child.exited;
    await out.done;
    const acknowledged = out.lines.slice(1).filter((l) => /^ent_/.test(l));
    expect(acknowledged.length).toBeGreaterThanOrEqual(400);

    const warnings: SessionWarning[] = [];
    const opened = openSession({ home, idOrPath: sessionId, onWarning: (w) => warnings.push(w) });
    if (!opened.ok) throw new Error(opened.error.message);
    const ids = new Set(opened.store.entries().map((e) => e.id));
    for (const id of acknowledged) expect(ids.has(id)).toBe(true);
    // The dead child's lock was taken over (and said so); a torn tail, if any, was reported.
    expect(warnings.some((w) => w.kind === "stale_lock_taken_over")).toBe(true);
    const bytes = readFileSync(opened.store.path);
    expect(bytes[bytes.length - 1]).toBe(0x0a);
    opened.store.append(userText("after the crash"));
    opened.store.close();
    const again = openSession({ home, idOrPath: sessionId });
    expect(again.ok).toBe(true);
    if (again.ok) again.store.close();
  });

  test("torn tail without newline is truncated, reported, and appends continue", () => {
    const { id, path } = sessionWith(3);
    const goodSize = statSync(path).size;
    appendFileSync(path, '{"id":"ent_torn","parent_id":"ent_x","type":"mess');
    const warnings: SessionWarning[] = [];
    const opened = openSession({ home, idOrPath: id, onWarning: (w) => warnings.push(w) });
    if (!opened.ok) throw new Error(opened.error.message);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.kind).toBe("torn_tail_truncated");
    expect(warnings[0]?.message).toContain("line 5");
    expect(statSync(path).size).toBe(goodSize);
    expect(opened.store.entries()).toHaveLength(3);
    const next = opened.store.append(userText("continues"));
    expect(next.parent_id).toBe(opened.store.entries()[2]?.id as string);
    opened.store.close();
    const again = openSession({ home, idOrPath: id, onWarning: (w) => warnings.push(w) });
    if (!again.ok) throw new Error(again.error.message);
    expect(again.store.entries()).toHaveLength(4);
    expect(warnings).toHaveLength(1);
    again.store.close();
  });

  test("a final newline-terminated line that is not JSON is treated as torn", () => {
    const { id, path } = sessionWith(2);
    const goodSize = statSync(path).size;
    appendFileSync(path, '{"id":"ent_half",\n');
    const warnings: SessionWarning[] = [];
    const opened = openSession({ home, idOrPath: id, onWarning: (w) => warnings.push(w) });
    if (!opened.ok) throw new Error(opened.error.message);
    expect(warnings.map((w) => w.kind)).toEqual(["torn_tail_truncated"]);
    expect(statSync(path).size).toBe(goodSize);
    opened.store.close();
  });

  test("a corrupt line in the middle is SESSION_CORRUPT with its line number, and the file is left alone", () => {
    const { id, path } = sessionWith(5);
    replaceLine(path, 4, '{"id": "ent_broken", oops');
    const before = readFileSync(path);
    const opened = openSession({ home, idOrPath: id });
    expect(opened.ok).toBe(false);
    if (!opened.ok) {
      expect(opened.error.code).toBe("SESSION_CORRUPT");
      expect(opened.error.message).toContain("line 4: not valid JSON");
    }
    expect(readFileSync(path).equals(before)).toBe(true);
    // The failed open released its lock.
    const retry = openSession({ home, idOrPath: id });
    expect(retry.ok || retry.error.code).toBe("SESSION_CORRUPT");
  });

  test("a broken chain or unknown entry type is SESSION_CORRUPT", () => {
    const { id, path } = sessionWith(3);
    const lines = readFileSync(path, "utf8").split("\n");
    const entry = JSON.parse(lines[2] as string);
    replaceLine(path, 3, JSON.stringify({ ...entry, parent_id: "ent_elsewhere" }));
    const opened = openSession({ home, idOrPath: id });
    expect(!opened.ok && opened.error.message).toContain("line 3: parent_id");

    replaceLine(path, 3, JSON.stringify({ ...entry, type: "mystery" }));
    const again = openSession({ home, idOrPath: id });
    expect(!again.ok && again.error.message).toContain('line 3: unknown entry type "mystery"');
  });

  test("queued-input entries round-trip, and malformed ones are SESSION_CORRUPT", () => {
    const store = createSession({ home, cwd: "/tmp/p" });
    const message = {
      id: "msg_q",
      role: "user" as const,
      content: [{ type: "text" as const, text: "later" }],
    };
    const queued = store.append({ type: "queued_input", behavior: "follow_up", message });
    store.append({ type: "queue_dropped", ids: [queued.id] });
    store.close();
    const reopened = openSession({ home, idOrPath: store.sessionId });
    if (!reopened.ok) throw new Error(reopened.error.message);
    expect(reopened.store.entries().map((e) => e.type)).toEqual(["queued_input", "queue_dropped"]);
    // Queued input is not conversation until a message delivers it.
    expect(reopened.store.liveWindow().messages).toEqual([]);
    reopened.store.close();

    const line2 = JSON.parse(readFileSync(store.path, "utf8").split("\n")[1] as string);
    replaceLine(store.path, 2, JSON.stringify({ ...line2, behavior: "sometime" }));
    const bad = openSession({ home, idOrPath: store.sessionId });
    expect(!bad.ok && bad.error.message).toContain(
      'line 2: queued_input entry: field "behavior": must be one of "steer", "follow_up"',
    );
  });

  test("a bad or missing header is SESSION_CORRUPT at line 1", () => {
    const { id, path } = sessionWith(2);
    const original = readFileSync(path, "utf8");
    replaceLine(path, 1, '{"type":"session","version":7,"session_id":"x","cwd":"/","created_at":1}');
    let opened = openSession({ home, idOrPath: id });
    expect(!opened.ok && opened.error).toEqual({
      code: "SESSION_CORRUPT",
      message: `${path} line 1: unsupported session version 7`,
    });

    writeFileSync(path, original.split("\n").slice(1).join("\n"));
    opened = openSession({ home, idOrPath: id });
    expect(!opened.ok && opened.error.message).toContain("line 1: header");

    writeFileSync(path, "");
    opened = openSession({ home, idOrPath: id });
    expect(!opened.ok && opened.error.message).toContain("line 1: missing header");
  });
});
