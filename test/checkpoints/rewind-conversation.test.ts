/**
 * `restore_checkpoint` with `conversation: true` through a real `shard agent`: the files go back
 * and the session is forked just before the turn's prompt; the agent continues in the fork, so
 * the next provider request (what the mock LLM server sees) no longer holds that turn or any
 * later one. The client gets a `sync` naming the fork. Refusals write nothing.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AgentProcess, type Msg, tempDir } from "../agent/support/agent-process.ts";
import { useAgentHarness } from "../agent/support/harness.ts";
import { allowedTurn } from "./support/allowed-turn.ts";

setDefaultTimeout(90_000);

const { llm, spawn } = useAgentHarness();

const write = (path: string, content: string) => ({
  steps: [{ tool_call: { name: "write", args: { path, content } } }, { text: `wrote ${path}` }],
});

/** The text of the newest provider request's body: the conversation the model was sent. */
const lastRequest = () => JSON.stringify(llm().requests.at(-1)?.body);

async function checkpointsByTurn(agent: AgentProcess): Promise<Msg[]> {
  const res = await agent.request({ type: "list_checkpoints" });
  expect(res.success).toBe(true);
  return res.data.checkpoints.filter((c: Msg) => c.turn_id !== undefined);
}

describe("restore_checkpoint with conversation", () => {
  test("rewinds the files and the conversation to before the turn; the agent continues there", async () => {
    const cwd = tempDir("rewind");
    writeFileSync(join(cwd, "a.txt"), "original\n");
    const agent = await spawn({ cwd });
    const read = (name: string) => readFileSync(join(cwd, name), "utf8");

    llm().enqueue(write("a.txt", "alpha\n"));
    await allowedTurn(agent, "PROMPT-ALPHA write a.txt");
    llm().enqueue(write("b.txt", "beta\n"));
    await allowedTurn(agent, "PROMPT-BETA write b.txt");
    llm().enqueue(write("a.txt", "gamma\n"));
    await allowedTurn(agent, "PROMPT-GAMMA rewrite a.txt");
    expect(lastRequest()).toContain("PROMPT-BETA");
    const sessionBefore = agent.events.find((e) => e.type === "sync")?.session_id;

    const [, beforeBeta, beforeAlpha] = await checkpointsByTurn(agent);
    if (beforeBeta === undefined || beforeAlpha === undefined)
      throw new Error("three turn checkpoints expected");

    const from = agent.events.length;
    const rewound = await agent.request({
      type: "restore_checkpoint",
      checkpoint_id: beforeBeta.checkpoint_id,
      conversation: true,
    });
    expect(rewound.success).toBe(true);
    expect(rewound.data.restored.toSorted()).toEqual(["a.txt", "b.txt"]);
    expect(read("a.txt")).toBe("alpha\n");
    expect(existsSync(join(cwd, "b.txt"))).toBe(false);
    const fork = rewound.data.conversation;
    expect(fork.session_id).toMatch(/^ses_/);
    expect(fork.session_id).not.toBe(sessionBefore);

    // The client was re-synced: the fork's id, and a window that ends before PROMPT-BETA.
    const sync = agent.events.slice(from).find((e) => e.type === "sync");
    expect(sync?.session_id).toBe(fork.session_id);
    const shown = JSON.stringify(sync?.live_window);
    expect(shown).toContain("PROMPT-ALPHA");
    expect(shown).not.toContain("PROMPT-BETA");
    expect(shown).not.toContain("PROMPT-GAMMA");

    // The next provider request holds turn 1 and the new prompt, not turns 2 and 3.
    llm().enqueue({ steps: [{ text: "fresh start" }] });
    await allowedTurn(agent, "PROMPT-DELTA after the rewind");
    const sent = lastRequest();
    expect(sent).toContain("PROMPT-ALPHA");
    expect(sent).toContain("PROMPT-DELTA");
    expect(sent).not.toContain("PROMPT-BETA");
    expect(sent).not.toContain("PROMPT-GAMMA");

    // The fork kept the checkpoints: the restore itself can still be undone (files only).
    const undo = await agent.request({
      type: "restore_checkpoint",
      checkpoint_id: rewound.data.undo_checkpoint_id,
    });
    expect(undo.success).toBe(true);
    expect(read("a.txt")).toBe("gamma\n");
    expect(read("b.txt")).toBe("beta\n");

    // A restore's own checkpoint has no turn to rewind to; turn 3's prompt is not in the fork.
    const noTurn = await agent.request({
      type: "restore_checkpoint",
      checkpoint_id: rewound.data.undo_checkpoint_id,
      conversation: true,
    });
    expect(noTurn.error.code).toBe("INVALID_REQUEST");
    const [beforeGamma] = (await checkpointsByTurn(agent)).filter(
      (c) => c.checkpoint_id !== beforeBeta.checkpoint_id && c.checkpoint_id !== beforeAlpha.checkpoint_id,
    );
    const gone = await agent.request({
      type: "restore_checkpoint",
      checkpoint_id: beforeGamma?.checkpoint_id,
      conversation: true,
    });
    expect(gone.error.code).toBe("NOT_FOUND");
    expect(read("a.txt")).toBe("gamma\n");

    // Turn 1 opened the session: rewinding it leaves an empty conversation.
    const toStart = await agent.request({
      type: "restore_checkpoint",
      checkpoint_id: beforeAlpha.checkpoint_id,
      conversation: true,
      force: true,
    });
    expect(toStart.success).toBe(true);
    expect(read("a.txt")).toBe("original\n");
    llm().enqueue({ steps: [{ text: "from scratch" }] });
    await allowedTurn(agent, "PROMPT-EPSILON");
    const scratch = lastRequest();
    expect(scratch).toContain("PROMPT-EPSILON");
    expect(scratch).not.toContain("PROMPT-ALPHA");
    expect(scratch).not.toContain("PROMPT-DELTA");
  });
});
