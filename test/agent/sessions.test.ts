/**
 * Sessions through a real `shard agent` process (docs/architecture.md §9.2,
 * docs/protocol.md §10.1): resume, corruption handling, the single-writer lock, and `session_op`
 * list / compact / fork.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { appendFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRuntime } from "../../src/agent/create-runtime.ts";
import { type AgentProcess, type Msg, mockHome, tempDir } from "./support/agent-process.ts";
import { activeSession, blockText, sessionFile, until } from "./support/events.ts";
import { useAgentHarness } from "./support/harness.ts";

setDefaultTimeout(60_000);

const { llm, start } = useAgentHarness();

function entriesOf(path: string): Msg[] {
  const lines = readFileSync(path, "utf8").split("\n").filter(Boolean);
  return lines.slice(1).map((l) => JSON.parse(l));
}

function sha256(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

async function say(agent: AgentProcess, prompt: string, reply: string): Promise<Msg[]> {
  llm().enqueue({ steps: [{ text: reply }], usage: { input: 10, output: 5 } });
  return agent.prompt(prompt);
}

describe("resume", () => {
  test("a new agent with --session restores history, mode, model and reasoning level", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const first = start({ home, cwd });
    await say(first, "remember the word PINEAPPLE", "noted PINEAPPLE");
    expect((await first.request({ type: "set_model", model: "mockant/claude" })).success).toBe(true);
    const level = await first.request({
      type: "set_reasoning_level",
      model: "mockant/claude",
      effort: "high",
    });
    expect(level.success).toBe(true);
    expect((await first.request({ type: "set_mode", mode: "plan" })).success).toBe(true);
    const id = await activeSession(first);
    expect(readdirSync(join(home, "sessions"))).toEqual([id]);
    expect(await first.close()).toBe(0);

    const second = start({ home, cwd, model: null, args: ["--session", id] });
    const sync = await second.waitType("sync");
    expect(sync.mode).toBe("plan");
    expect(sync.live_window.messages.map((m: Msg) => [m.role, blockText(m)])).toEqual([
      ["user", "remember the word PINEAPPLE"],
      ["assistant", "noted PINEAPPLE"],
    ]);
    const models = await second.request({ type: "list_models" });
    expect(models.data.active.id).toBe("mockant/claude");
    const levels = await second.request({ type: "list_reasoning_levels" });
    expect(levels.data.active).toBe("high");
    const modes = await second.request({ type: "list_modes" });
    expect(modes.data.active).toBe("plan");
    expect(await activeSession(second)).toBe(id);

    const before = llm().requests.length;
    await say(second, "which word?", "PINEAPPLE");
    const req = llm().requests[before];
    expect(req?.path).toContain("/messages");
    expect(req?.body.model).toBe("claude");
    const history = JSON.stringify(req?.body.messages);
    expect(history).toContain("remember the word PINEAPPLE");
    expect(history).toContain("noted PINEAPPLE");
    expect(history).toContain("which word?");
    // The new turn is appended to the same session file.
    const texts = entriesOf(sessionFile(home, id))
      .filter((e) => e.type === "message")
      .map((e) => blockText(e.message));
    expect(texts).toEqual(["remember the word PINEAPPLE", "noted PINEAPPLE", "which word?", "PINEAPPLE"]);
  });

  test("a resumed session runs in its recorded project unless --cwd says otherwise", async () => {
    const home = mockHome(llm().url);
    const project = tempDir("project");
    const base = { home, env: {}, serverVersion: "test", model: "mock/chat" };
    const first = createRuntime({ ...base, cwd: project });
    if (!first.ok) throw new Error(first.error.message);
    const id = first.value.runtime.session.sessionId;
    await first.value.runtime.close();

    // process.cwd() is the repository, not the project: the session's own cwd wins.
    const resumed = createRuntime({ ...base, session: id });
    if (!resumed.ok) throw new Error(resumed.error.message);
    expect(resumed.value.runtime.options.cwd).toBe(project);
    await resumed.value.runtime.close();

    const elsewhere = tempDir("elsewhere");
    const moved = createRuntime({ ...base, session: id, cwd: elsewhere });
    if (!moved.ok) throw new Error(moved.error.message);
    expect(moved.value.runtime.options.cwd).toBe(elsewhere);
    await moved.value.runtime.close();

    rmSync(project, { recursive: true, force: true });
    const gone = createRuntime({ ...base, session: id });
    expect(gone.ok).toBe(false);
    if (!gone.ok)
      expect(gone.error).toMatchObject({ code: "NOT_FOUND", message: expect.stringContaining(project) });
  });

  test("a corrupt middle line fails with SESSION_CORRUPT naming the line; a torn tail opens", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const first = start({ home, cwd });
    await say(first, "one", "two");
    await say(first, "three", "four");
    const id = await activeSession(first);
    await first.close();
    const path = sessionFile(home, id);
    const good = readFileSync(path, "utf8");

    // Line 3 (the second entry) garbled in the middle of the file.
    const lines = good.split("\n");
    lines[2] = `${lines[2]?.slice(0, 20)}#garbage`;
    writeFileSync(path, lines.join("\n"));
    const corrupt = start({ home, cwd, args: ["--session", id] });
    expect(await corrupt.exit()).not.toBe(0);
    const fatal = corrupt.events.find((m) => m.type === "error");
    expect(fatal).toMatchObject({ code: "SESSION_CORRUPT", fatal: true });
    expect(fatal?.message).toContain("line 3");
    expect(corrupt.events.map((m) => m.type)).not.toContain("sync");

    // A torn tail (half a line, no newline) is truncated and the session opens.
    writeFileSync(path, good);
    appendFileSync(path, '{"id":"ent_torn","parent_id":"x","type":"mess');
    const torn = start({ home, cwd, args: ["--session", id] });
    const sync = await torn.waitType("sync");
    expect(sync.live_window.messages.map((m: Msg) => blockText(m))).toEqual(["one", "two", "three", "four"]);
    await torn.close();
    expect(readFileSync(path, "utf8")).toBe(good);
  });
});

describe("single writer", () => {
  test("a second runtime is refused with CONFLICT naming the pid; after a clean exit or kill -9 a new one opens", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const first = start({ home, cwd });
    await say(first, "hello", "hi");
    const id = await activeSession(first);

    const refused = start({ home, cwd, args: ["--session", id] });
    expect(await refused.exit()).not.toBe(0);
    const error = refused.events.find((m) => m.type === "error");
    expect(error).toMatchObject({ code: "CONFLICT", fatal: true });
    expect(error?.message).toContain(`pid ${first.proc.pid}`);

    expect(await first.close()).toBe(0);
    const afterClean = start({ home, cwd, args: ["--session", id] });
    expect((await afterClean.waitType("sync")).live_window.messages).toHaveLength(2);

    await afterClean.kill9();
    const afterKill = start({ home, cwd, args: ["--session", id] });
    const sync = await afterKill.waitType("sync");
    expect(sync.live_window.messages).toHaveLength(2);
    expect(afterKill.stderr).not.toContain("CONFLICT");
  });
});

describe("session_op list", () => {
  test("lists this project's sessions with title, entry count and fork provenance", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const first = start({ home, cwd });
    await say(first, "first session title", "ok");
    const firstId = await activeSession(first);
    await first.close();

    const elsewhere = start({ home, cwd: tempDir("other") });
    await say(elsewhere, "another project", "ok");
    await elsewhere.close();

    const second = start({ home, cwd });
    await say(second, "second session title", "ok");
    await say(second, "more", "ok");
    const secondId = await activeSession(second);
    const entries = entriesOf(sessionFile(home, secondId));
    const fork = await second.request({
      type: "session_op",
      op: "fork",
      args: { from_entry_id: entries[1]?.id },
    });
    expect(fork.success).toBe(true);

    const res = await second.request({ type: "session_op", op: "list" });
    expect(res.success).toBe(true);
    expect(res.data.active).toBe(secondId);
    const byId = new Map(res.data.sessions.map((s: Msg) => [s.session_id, s]));
    expect(byId.size).toBe(3);
    // Each turn is its prompt, its answer and the call's `usage` entry (the session's cost ledger).
    expect(byId.get(firstId)).toMatchObject({ title: "first session title", entry_count: 3, cwd });
    expect(byId.get(secondId)).toMatchObject({ title: "second session title", entry_count: 6, cwd });
    expect(byId.get(secondId)).not.toHaveProperty("fork");
    expect(byId.get(fork.data.session_id)).toMatchObject({
      title: "second session title",
      fork: { fork_id: fork.data.fork_id, source_session_id: secondId, source_entry_id: entries[1]?.id },
    });
    for (const s of res.data.sessions) {
      expect(typeof s.created_at).toBe("number");
      expect(typeof s.updated_at).toBe("number");
    }
  });
});

describe("session_op compact", () => {
  test("compacts with status compacting → compaction event → response → status idle", async () => {
    const home = mockHome(llm().url);
    const agent = start({ home, cwd: tempDir("cwd") });
    await say(agent, "first question", "first answer");
    await say(agent, "second question", "second answer");
    const from = agent.events.length;
    const res = await agent.request({ type: "session_op", op: "compact", args: { keep_recent_tokens: 1 } });
    await agent.waitStatus("idle", from);
    expect(agent.typesSince(from)).toEqual(["status", "compaction", "response", "status"]);
    expect(agent.events[from]).toMatchObject({ type: "status", status: "compacting" });
    const event = agent.events[from + 1] as Msg;
    expect(res.success).toBe(true);
    expect(res.command).toBe("session_op");
    // The event carries the response's fields, plus the new head of the live window (additive).
    const { type: _t, seq: _s, summary_message, first_kept_message_id, ...fields } = event;
    expect(res.data).toEqual({ compacted: true, ...fields });
    expect(summary_message.role).toBe("user");
    expect(res.data.index).toBe(0);
    expect(res.data.tokens_before).toBeGreaterThan(0);
    expect(res.data.tokens_after).toBeGreaterThan(0);
    expect(res.data.message_range).toHaveLength(2);

    // A client (re)attaching sees the summary in place of the compacted messages.
    const id = await activeSession(agent);
    await agent.close();
    const resumed = start({ home, cwd: agent.cwd, args: ["--session", id] });
    const sync = await resumed.waitType("sync");
    expect(sync.live_window.compaction_index).toBe(0);
    expect(sync.live_window.compaction_tokens).toEqual({
      before: res.data.tokens_before,
      after: res.data.tokens_after,
    });
    expect(blockText(sync.live_window.messages[0])).toContain("recall");
    expect(blockText(sync.live_window.messages.at(-1))).toBe("second answer");
  });

  test("an empty or too-small window is a successful no-op with the same status lifecycle", async () => {
    const agent = start({ home: mockHome(llm().url), cwd: tempDir("cwd") });
    await agent.waitType("sync");
    for (const args of [{}, { keep_recent_tokens: 5 }]) {
      const from = agent.events.length;
      const res = await agent.request({ type: "session_op", op: "compact", args });
      await agent.waitStatus("idle", from);
      expect(res.success).toBe(true);
      expect(res.data).toEqual({ compacted: false, reason: "no_safe_cut" });
      expect(agent.typesSince(from)).toEqual(["status", "response", "status"]);
      expect(agent.events[from]?.status).toBe("compacting");
      await say(agent, "tiny", "ok");
    }
  });

  test("keep_recent_tokens that is not a positive integer is INVALID_REQUEST", async () => {
    const agent = start({ home: mockHome(llm().url), cwd: tempDir("cwd") });
    await say(agent, "q", "a");
    for (const bad of [0, -5, 1.5, "100", null]) {
      const from = agent.events.length;
      const res = await agent.request({
        type: "session_op",
        op: "compact",
        args: { keep_recent_tokens: bad },
      });
      expect(res.success).toBe(false);
      expect(res.error.code).toBe("INVALID_REQUEST");
      expect(res.error.message).toContain("keep_recent_tokens");
      expect(agent.typesSince(from)).toEqual(["response"]);
    }
  });

  test("compact and fork while a turn is in flight, or a follow-up is queued, are CONFLICT", async () => {
    const agent = start({ home: mockHome(llm().url), cwd: tempDir("cwd") });
    await say(agent, "q", "a");
    const entryId = entriesOf(sessionFile(agent.home, await activeSession(agent)))[0]?.id;
    llm().enqueue({ steps: [{ text: "thinking..." }, { hold: "in-flight" }] });
    const from = agent.events.length;
    expect((await agent.request({ type: "prompt", message: "long one" })).success).toBe(true);
    await agent.waitType("message_delta", from);

    const ops = [
      { op: "compact", args: {} },
      { op: "fork", args: { from_entry_id: entryId } },
    ];
    for (const op of ops) {
      const res = await agent.request({ type: "session_op", ...op });
      expect(res.success).toBe(false);
      expect(res.error.code).toBe("CONFLICT");
    }
    const queued = await agent.request({ type: "prompt", message: "later", streaming_behavior: "follow_up" });
    expect(queued.data).toEqual({ queued: "follow_up" });
    for (const op of ops) {
      const res = await agent.request({ type: "session_op", ...op });
      expect(res.error.code).toBe("CONFLICT");
    }
    expect(agent.typesSince(from)).not.toContain("compaction");
    const aborted = await agent.request({ type: "abort" });
    expect(aborted.data).toEqual({ cleared_queued: 1 });
    await agent.waitStatus("idle", from);
  });
});

describe("session_op fork", () => {
  test("fork copies the window at an entry, leaves the source byte-identical, and can be resumed", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const agent = start({ home, cwd });
    await say(agent, "alpha question", "alpha answer");
    await say(agent, "beta question", "beta answer");
    const id = await activeSession(agent);
    const path = sessionFile(home, id);
    const entries = entriesOf(path);
    const before = sha256(path);

    const missing = await agent.request({ type: "session_op", op: "fork" });
    expect(missing.error.code).toBe("INVALID_REQUEST");
    const empty = await agent.request({ type: "session_op", op: "fork", args: { from_entry_id: "" } });
    expect(empty.error.code).toBe("INVALID_REQUEST");
    const unknown = await agent.request({
      type: "session_op",
      op: "fork",
      args: { from_entry_id: "ent_does_not_exist" },
    });
    expect(unknown.error.code).toBe("NOT_FOUND");
    // The fork file cannot be written: a plain file where the forks/ directory would go.
    const blocker = join(home, "sessions", id, "forks");
    writeFileSync(blocker, "");
    const io = await agent.request({
      type: "session_op",
      op: "fork",
      args: { from_entry_id: entries[1]?.id },
    });
    expect(io.error.code).toBe("INTERNAL_ERROR");
    rmSync(blocker);

    const forkPoint = entries[1]; // the first assistant answer
    expect(forkPoint?.type).toBe("message");
    const res = await agent.request({
      type: "session_op",
      op: "fork",
      args: { from_entry_id: forkPoint?.id },
    });
    expect(res.success).toBe(true);
    expect(Object.keys(res.data).sort()).toEqual(["fork_id", "head_entry_id", "session_id"]);
    expect(res.data.session_id).not.toBe(id);
    expect(sha256(path)).toBe(before);
    // The agent keeps talking on the source session.
    expect(await activeSession(agent)).toBe(id);
    await agent.close();
    expect(sha256(path)).toBe(before);

    const resumed = start({ home, cwd, args: ["--session", res.data.session_id] });
    const sync = await resumed.waitType("sync");
    expect(sync.live_window.messages.map((m: Msg) => blockText(m))).toEqual([
      "alpha question",
      "alpha answer",
    ]);
    expect(await activeSession(resumed)).toBe(res.data.session_id);
    const sent = llm().requests.length;
    await say(resumed, "gamma question", "gamma answer");
    const history = JSON.stringify(llm().requests[sent]?.body.messages);
    expect(history).toContain("alpha answer");
    expect(history).not.toContain("beta");
    await resumed.close();
    expect(sha256(path)).toBe(before);
  });
});

describe("a prompt that arrives during a manual compaction (in-process runtime)", () => {
  test("is queued as a follow-up and starts once the compaction is done", async () => {
    const { handleInbound } = await import("../../src/agent/protocol/commands.ts");
    const home = mockHome(llm().url);
    const created = createRuntime({
      home,
      cwd: tempDir("cwd"),
      env: {},
      serverVersion: "test",
      model: "mock/chat",
    });
    if (!created.ok) throw new Error(created.error.message);
    const runtime = created.value.runtime;
    const events: Msg[] = [];
    const client = {
      id: "c1",
      send: (m: Record<string, unknown>) => events.push(m as Msg),
    };
    runtime.attach(client);
    const turnEnds = () => events.filter((e) => e.type === "turn_end").length;
    const waitTurns = (n: number) => until(() => (turnEnds() >= n && !runtime.turnActive ? true : undefined));
    try {
      for (let i = 0; i < 3; i++) {
        llm().enqueue({ steps: [{ text: `answer ${i} ${"words ".repeat(200)}` }] });
        await handleInbound(runtime, client, { type: "prompt", message: `question ${i}` });
        await waitTurns(i + 1);
      }
      llm().enqueue({ steps: [{ text: "after compaction" }] });
      const compacting = handleInbound(runtime, client, {
        type: "session_op",
        id: "c",
        op: "compact",
        args: { keep_recent_tokens: 50 },
      });
      // Sent while the compaction is still running: queued, not started.
      await handleInbound(runtime, client, { type: "prompt", id: "p", message: "during compaction" });
      await compacting;
      const accepted = events.find((e) => e.type === "response" && e.id === "p")!;
      expect(accepted.data).toEqual({ queued: "follow_up" });
      // The compaction answers when it ends, after the prompt behind it was handled.
      const compacted = await until(() => events.find((e) => e.type === "response" && e.id === "c"));
      expect(compacted.data.compacted).toBe(true);
      await waitTurns(4);
      const lastUser = runtime.session
        .liveWindow()
        .messages.filter((m) => m.role === "user")
        .at(-1)!;
      expect(JSON.stringify(lastUser.content)).toContain("during compaction");
    } finally {
      await runtime.close();
    }
  });
});
