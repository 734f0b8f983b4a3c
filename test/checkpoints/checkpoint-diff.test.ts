/**
 * `checkpoint_diff` through a real `shard agent`: a turn's diff is what that turn changed (a file
 * the person wrote between turns is not in it), a restore's undo checkpoint shows what the
 * restore changed, the turn's marker position (`after_message_id`) is listed, a diff too large
 * is cut and says so, an unknown id is NOT_FOUND, and listing before any checkpoint creates
 * no shadow repository.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentProcess, Msg } from "../agent/support/agent-process.ts";
import { useAgentHarness } from "../agent/support/harness.ts";
import { allowedTurn } from "./support/allowed-turn.ts";
import { repoWithA } from "./support/repo-with-a.ts";

setDefaultTimeout(90_000);

const { llm, spawn } = useAgentHarness();

async function diffOf(agent: AgentProcess, checkpoint_id: string): Promise<Msg> {
  const res = await agent.request({ type: "checkpoint_diff", checkpoint_id });
  expect(res.success).toBe(true);
  return res.data;
}

/** Each file as `status path: +added -removed lines`. */
function summary(diff: Msg): string[] {
  return diff.files.map((f: Msg) => {
    const lines = f.hunks.flatMap((h: Msg) => h.lines);
    return `${f.status} ${f.path}: ${lines.filter((l: string) => /^[+-]/.test(l)).join(" ")}`;
  });
}

describe("checkpoint_diff in the agent", () => {
  test("each turn's diff is its own changes; a restore's undo checkpoint shows what it put back", async () => {
    const repo = repoWithA();
    const agent = await spawn({ cwd: repo });
    // Listing before any checkpoint (the web lists on every attach) makes no shadow repository.
    expect((await agent.request({ type: "list_checkpoints" })).data).toEqual({ checkpoints: [] });
    expect(existsSync(join(agent.home, "checkpoints"))).toBe(false);

    llm().enqueue({
      steps: [{ tool_call: { name: "write", args: { path: "a.txt", content: "turn one\n" } } }],
    });
    await allowedTurn(agent, "write a.txt");
    // The person writes a file between the turns: no turn's diff shows it.
    writeFileSync(join(repo, "notes.txt"), "mine\n");
    llm().enqueue({
      steps: [{ tool_call: { name: "bash", args: { command: "echo 'turn two' > a.txt; echo b > b.txt" } } }],
    });
    await allowedTurn(agent, "change a.txt, create b.txt");

    const { checkpoints } = (await agent.request({ type: "list_checkpoints" })).data;
    const [two, one] = checkpoints;
    expect(checkpoints).toHaveLength(2);
    expect(summary(await diffOf(agent, two.checkpoint_id))).toEqual([
      "modified a.txt: -turn one +turn two",
      "added b.txt: +b",
    ]);
    expect(summary(await diffOf(agent, one.checkpoint_id))).toEqual(["modified a.txt: -committed +turn one"]);
    expect((await diffOf(agent, one.checkpoint_id)).truncated).toBe(false);

    // Each turn is listed with the message it ended after: its last assistant message.
    const messages = agent.events.filter((e) => e.type === "message_complete").map((e) => e.message);
    const lastAssistant = (turnId: string) => {
      const start = agent.events.findIndex((e) => e.type === "turn_start" && e.turn_id === turnId);
      const end = agent.events.findIndex((e) => e.type === "turn_end" && e.turn_id === turnId);
      return agent.events
        .slice(start, end)
        .findLast((e) => e.type === "message_complete" && e.message.role === "assistant")?.message_id;
    };
    expect(messages.length).toBeGreaterThan(0);
    expect(two.after_message_id).toBe(lastAssistant(two.turn_id));
    expect(one.after_message_id).toBe(lastAssistant(one.turn_id));
    expect(one.after_message_id).not.toBe(two.after_message_id);

    // Undo to before turn one: the undo checkpoint's diff is what the restore changed.
    const restored = await agent.request({ type: "restore_checkpoint", checkpoint_id: one.checkpoint_id });
    expect(restored.success).toBe(true);
    const undo = await diffOf(agent, restored.data.undo_checkpoint_id);
    expect(summary(undo)).toEqual([
      "modified a.txt: -turn two +committed",
      "deleted b.txt: -b",
      "deleted notes.txt: -mine",
    ]);
    // The turns' diffs do not change with the files on disk.
    expect(summary(await diffOf(agent, two.checkpoint_id))).toEqual([
      "modified a.txt: -turn one +turn two",
      "added b.txt: +b",
    ]);

    const unknown = await agent.request({ type: "checkpoint_diff", checkpoint_id: "0".repeat(40) });
    expect(unknown.success).toBe(false);
    expect(unknown.error.code).toBe("NOT_FOUND");
  });

  test("a turn that changed more files than a diff holds is cut and says so", async () => {
    const repo = repoWithA();
    const agent = await spawn({ cwd: repo });
    llm().enqueue({
      steps: [
        {
          tool_call: {
            name: "bash",
            args: { command: "mkdir many; for i in $(seq 1 320); do echo $i > many/f$i.txt; done" },
          },
        },
      ],
    });
    await allowedTurn(agent, "make many files");
    const [only] = (await agent.request({ type: "list_checkpoints" })).data.checkpoints;
    expect(only.files_changed).toBe(320);
    const diff = await diffOf(agent, only.checkpoint_id);
    expect(diff.truncated).toBe(true);
    expect(diff.files.length).toBeGreaterThan(0);
    expect(diff.files.length).toBeLessThan(320);
  });
});
