/**
 * `session_op fork` at a message a client shows (issue 7 item 16): the message ids of
 * `message_complete` and `sync.live_window` are valid fork points (docs/protocol-additions.md
 * §2). Real `shard agent` processes against the mock LLM server.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { AgentProcess, Msg } from "./support/agent-process.ts";
import { mockHome, tempDir } from "./support/agent-process.ts";
import { activeSession, blockText } from "./support/events.ts";
import { useAgentHarness } from "./support/harness.ts";

setDefaultTimeout(60_000);

const { llm, spawn } = useAgentHarness();

async function say(agent: AgentProcess, prompt: string, reply: string): Promise<Msg[]> {
  llm().enqueue({ steps: [{ text: reply }] });
  return agent.prompt(prompt);
}

function windowTexts(sync: Msg): string[] {
  return sync.live_window.messages.map((m: Msg) => blockText(m));
}

describe("session_op fork by message id", () => {
  test("forks at the assistant message of a message_complete; the fork resumes with that window", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const agent = await spawn({ home, cwd });
    const alpha = await say(agent, "alpha question", "alpha answer");
    await say(agent, "beta question", "beta answer");
    const answer = alpha.find((e) => e.type === "message_complete" && e.message.role === "assistant");
    expect(answer?.message_id).toMatch(/^msg_/);

    const res = await agent.request({
      type: "session_op",
      op: "fork",
      args: { from_entry_id: answer?.message_id },
    });
    expect(res.success).toBe(true);
    const source = await activeSession(agent);
    const list = await agent.request({ type: "session_op", op: "list" });
    const forked = list.data.sessions.find((s: Msg) => s.session_id === res.data.session_id);
    // Provenance names the entry that holds the message.
    expect(forked.fork).toMatchObject({
      source_session_id: source,
      source_entry_id: expect.stringMatching(/^ent_/),
    });
    await agent.close();

    const resumed = await spawn({ home, cwd, args: ["--session", res.data.session_id] });
    const sync = resumed.events.find((e) => e.type === "sync") as Msg;
    expect(windowTexts(sync)).toEqual(["alpha question", "alpha answer"]);
    expect(sync.live_window.messages[1].id).toBe(answer?.message_id);
  });

  test("forks at a user message id from sync.live_window after a reconnect", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    const first = await spawn({ home, cwd });
    await say(first, "alpha question", "alpha answer");
    await say(first, "beta question", "beta answer");
    const id = await activeSession(first);
    await first.close();

    const again = await spawn({ home, cwd, args: ["--session", id] });
    const sync = again.events.find((e) => e.type === "sync") as Msg;
    const beta = sync.live_window.messages[2];
    expect(blockText(beta)).toBe("beta question");
    const res = await again.request({ type: "session_op", op: "fork", args: { from_entry_id: beta.id } });
    expect(res.success).toBe(true);
    await again.close();

    const fork = await spawn({ home, cwd, args: ["--session", res.data.session_id] });
    const forkSync = fork.events.find((e) => e.type === "sync") as Msg;
    expect(windowTexts(forkSync)).toEqual(["alpha question", "alpha answer", "beta question"]);
  });

  test("an unknown message id is NOT_FOUND", async () => {
    const agent = await spawn({ home: mockHome(llm().url) });
    await say(agent, "q", "a");
    const res = await agent.request({ type: "session_op", op: "fork", args: { from_entry_id: "msg_nope" } });
    expect(res.success).toBe(false);
    expect(res.error.code).toBe("NOT_FOUND");
    expect(res.error.message).toContain("msg_nope");
  });
});
