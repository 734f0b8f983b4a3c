/**
 * `agent.checkpoints()`, `agent.checkpointDiff()` and `agent.restore()` against a real `shard agent` child on the mock LLM:
 * two turns that change files are listed newest first, a restore puts the files back, a file
 * the user edited is a typed `CheckpointConflictError` naming it, and `force` overwrites it.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Agent } from "../../sdk/src/agent.ts";
import { CheckpointConflictError } from "../../sdk/src/checkpoint-conflict.ts";
import { spawnAgent } from "../../sdk/src/direct.ts";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import { CHILD_ENV } from "../support/child-env.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";

// Real agent processes and git on a machine shared with other work.
setDefaultTimeout(90_000);

const llm = useMockLlmServer({ clearRequestsBeforeEach: true });
const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

describe("checkpoints from the SDK", () => {
  test("lists two turns newest first, restores, reports a conflict typed, and forces", async () => {
    const cwd = tempDir("cwd");
    writeFileSync(join(cwd, "a.txt"), "original\n");
    const agent = await spawnAgent({
      home: mockHome(llm().url),
      cwd,
      model: "mock/chat",
      env: { ...CHILD_ENV, SHARD_RETRY_BASE_MS: "5" },
      permissions: { allow: ["write"] },
    });
    agents.push(agent);
    const read = (name: string) => readFileSync(join(cwd, name), "utf8");

    llm().enqueue({ steps: [{ tool_call: { name: "write", args: { path: "a.txt", content: "one\n" } } }] });
    await agent.run("write a.txt");
    llm().enqueue({
      steps: [
        { tool_call: { name: "write", args: { path: "a.txt", content: "two\n" } } },
        { tool_call: { name: "write", args: { path: "b.txt", content: "b\n" } } },
      ],
    });
    await agent.run("change a.txt, create b.txt");
    expect(read("a.txt")).toBe("two\n");

    const listed = await agent.checkpoints();
    expect(listed.map((c) => c.files_changed)).toEqual([2, 1]);
    const [beforeTwo, beforeOne] = listed;
    if (beforeTwo === undefined || beforeOne === undefined) throw new Error("two checkpoints expected");
    expect(beforeTwo.turn_id).toBeDefined();
    expect(beforeTwo.created_at).toBeGreaterThanOrEqual(beforeOne.created_at);
    const diff = await agent.checkpointDiff(beforeTwo.checkpoint_id);
    expect(diff.truncated).toBe(false);
    expect(
      diff.files.map((f) => `${f.status} ${f.path} ${f.hunks.flatMap((h) => h.lines).join(" ")}`),
    ).toEqual(["modified a.txt -one +two", "added b.txt +b"]);

    const undone = await agent.restore(beforeTwo.checkpoint_id);
    expect(undone.restored.toSorted()).toEqual(["a.txt", "b.txt"]);
    expect(read("a.txt")).toBe("one\n");
    expect(existsSync(join(cwd, "b.txt"))).toBe(false);

    // The user edits a.txt: restoring turn 1's checkpoint would overwrite it.
    writeFileSync(join(cwd, "a.txt"), "the user's edit\n");
    const refused = await agent.restore(beforeOne.checkpoint_id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CheckpointConflictError);
    if (!(refused instanceof CheckpointConflictError)) throw new Error("a CheckpointConflictError expected");
    expect(refused.code).toBe("CONFLICT");
    expect(refused.conflicts).toEqual(["a.txt"]);
    expect(read("a.txt")).toBe("the user's edit\n");

    await agent.restore(beforeOne.checkpoint_id, { force: true });
    expect(read("a.txt")).toBe("original\n");
  });

  test("restore with conversation continues from before the turn, and agent.state follows the fork", async () => {
    const cwd = tempDir("cwd");
    const agent = await spawnAgent({
      home: mockHome(llm().url),
      cwd,
      model: "mock/chat",
      env: { ...CHILD_ENV, SHARD_RETRY_BASE_MS: "5" },
      permissions: { allow: ["write"] },
    });
    agents.push(agent);
    llm().enqueue({
      steps: [{ tool_call: { name: "write", args: { path: "a.txt", content: "one\n" } } }, { text: "ok" }],
    });
    await agent.run("PROMPT-ONE");
    llm().enqueue({
      steps: [{ tool_call: { name: "write", args: { path: "b.txt", content: "two\n" } } }, { text: "ok" }],
    });
    await agent.run("PROMPT-TWO");
    const [beforeTwo] = await agent.checkpoints();
    if (beforeTwo === undefined) throw new Error("a checkpoint expected");

    const rewound = await agent.restore(beforeTwo.checkpoint_id, { conversation: true });
    expect(rewound.conversation?.session_id).toMatch(/^ses_/);
    expect(existsSync(join(cwd, "b.txt"))).toBe(false);
    // The sync came before the answer: the SDK's state is the fork's already.
    expect(agent.state.session_id).toBe(rewound.conversation?.session_id);
    expect(JSON.stringify(agent.state.live_window)).not.toContain("PROMPT-TWO");

    llm().enqueue({ steps: [{ text: "again" }] });
    await agent.run("PROMPT-THREE");
    const sent = JSON.stringify(llm().requests.at(-1)?.body);
    expect(sent).toContain("PROMPT-ONE");
    expect(sent).toContain("PROMPT-THREE");
    expect(sent).not.toContain("PROMPT-TWO");
  });
});
