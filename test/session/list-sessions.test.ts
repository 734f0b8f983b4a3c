import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { createSession } from "../../src/session/create-session.ts";
import { forkSession } from "../../src/session/fork-session.ts";
import { listSessions } from "../../src/session/list-sessions.ts";
import type { SessionWarning } from "../../src/session/session-warning.ts";
import { assistantText, tempHome, userText } from "./helpers.ts";

let home: string;
let cleanup: () => void;
beforeEach(() => ({ home, cleanup } = tempHome()));
afterEach(() => cleanup());

describe("listSessions", () => {
  test("titles, newest first, cwd filter, forks listed, a corrupt session skipped and reported", async () => {
    const a = createSession({ home, cwd: "/work/alpha" });
    a.append({ type: "mode_change", mode: "plan" });
    a.append(userText("  Fix   the flaky\n test in parser.ts  "));
    a.append(assistantText("done"));
    const b = createSession({ home, cwd: "/work/beta" });
    b.append(userText(`Write a long ${"very ".repeat(40)}story`));
    const empty = createSession({ home, cwd: "/work/alpha" });
    const broken = createSession({ home, cwd: "/work/alpha" });
    broken.append(userText("will break"));
    await Bun.sleep(5); // distinct updated_at for the ordering check
    const fork = forkSession(a, a.headId() as string);
    if (!fork.ok) throw new Error(fork.error.message);
    for (const s of [a, b, empty, broken]) s.close();
    const lines = readFileSync(broken.path, "utf8").split("\n");
    writeFileSync(broken.path, ["{ not a header", ...lines.slice(1)].join("\n"));

    const warnings: SessionWarning[] = [];
    const all = listSessions(home, undefined, (w) => warnings.push(w));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.kind).toBe("session_skipped");
    expect(warnings[0]?.message).toContain(broken.path);
    expect(all.map((s) => s.session_id).sort()).toEqual(
      [a.sessionId, b.sessionId, empty.sessionId, fork.data.session_id].sort(),
    );
    for (let i = 1; i < all.length; i++)
      expect(all[i - 1]!.updated_at).toBeGreaterThanOrEqual(all[i]!.updated_at);
    expect(all[0]?.session_id).toBe(fork.data.session_id);

    const byId = new Map(all.map((s) => [s.session_id, s]));
    expect(byId.get(a.sessionId)).toMatchObject({
      title: "Fix the flaky test in parser.ts",
      cwd: "/work/alpha",
      entry_count: 3,
    });
    expect(byId.get(a.sessionId)?.fork).toBeUndefined();
    const long = byId.get(b.sessionId)?.title as string;
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long).toEndWith("…");
    expect(byId.get(empty.sessionId)).toMatchObject({ title: "(untitled)", entry_count: 0 });
    expect(byId.get(empty.sessionId)?.updated_at).toBe(empty.header.created_at);
    expect(byId.get(fork.data.session_id)).toMatchObject({
      title: "Fix the flaky test in parser.ts",
      cwd: "/work/alpha",
      fork: { fork_id: fork.data.fork_id, source_session_id: a.sessionId, source_entry_id: a.headId() },
    });

    const alpha = listSessions(home, "/work/alpha/", () => {});
    expect(alpha.map((s) => s.session_id).sort()).toEqual(
      [a.sessionId, empty.sessionId, fork.data.session_id].sort(),
    );
    expect(listSessions(home, "/work/none", () => {})).toEqual([]);
  });

  test("an empty home lists nothing", () => {
    expect(listSessions(home)).toEqual([]);
  });
});
