/**
 * Checkpoints across the ssh hop (docs/checkpoints.md, "On a placement"): an agent on an ssh
 * placement, in a git repository at the placement's path, takes a checkpoint before a turn whose
 * tool call writes a file; `list_checkpoints` and `checkpoint_diff` show it, and a restore puts
 * the placement's files back. A restore that rewinds the conversation forks the session there,
 * and the daemon's copy of it follows the fork: a restarted runtime resumes the fork, from the
 * placement's file and, when the placement lost its files, from the daemon's copy.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { mirrorPath } from "../../src/daemon/registry/session-mirror.ts";
import { repoWithA } from "../checkpoints/support/repo-with-a.ts";
import type { DaemonClient, Msg } from "../daemon/support/daemon-client.ts";
import { type DaemonHarness, useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { type RemoteShard, remoteShard } from "./support/remote-shard.ts";
import { createPlacedAgent, placeSshBox, startingOk, until, useSshd } from "./support/ssh-test.ts";
import { hasSshd } from "./support/sshd.ts";

setDefaultTimeout(120_000);

if (!hasSshd)
  console.log(
    "test/placements/ssh-checkpoints: SKIPPED: no /usr/sbin/sshd here (apt-get install openssh-server; CI installs it)",
  );

const llm = useMockLlmServer({ clearQueueBeforeEach: true });
const startHarness = useDaemonHarnesses(llm);
const server = useSshd();

async function sshAgentInRepo(): Promise<{
  harness: DaemonHarness;
  client: DaemonClient;
  remote: RemoteShard;
  repo: string;
  agentId: string;
}> {
  const harness = await startHarness();
  const remote = remoteShard(llm().url);
  placeSshBox(harness.home, server(), remote.shard);
  // The repository lies at a path on the placement (the loopback host shares this filesystem).
  const repo = repoWithA();
  const client = await harness.unixClient();
  const agentId = await createPlacedAgent(client, repo);
  return { harness, client, remote, repo, agentId };
}

/** One prompt to its end, allowing what it asks (the placement's sandbox policy is `ask`). */
async function turn(client: DaemonClient, agentId: string, message: string): Promise<void> {
  const from = client.messages.length;
  await client.ok({ type: "prompt", agent_id: agentId, message });
  let at = from;
  for (;;) {
    const next = await client.waitFor(
      (m) => m.agent_id === agentId && (m.type === "permission_request" || m.type === "turn_end"),
      at,
      60_000,
    );
    at = client.messages.indexOf(next) + 1;
    if (next.type === "turn_end") return;
    await client.ok({
      type: "permission_response",
      agent_id: agentId,
      request_id: next.request_id,
      choice_id: "allow_once",
    });
  }
}

function writes(path: string, content: string): void {
  llm().enqueue({ steps: [{ tool_call: { name: "write", args: { path, content } } }, { text: "written" }] });
}

const lastRequest = () => JSON.stringify(llm().requests.at(-1)?.body);

async function stopRuntime(client: DaemonClient, agentId: string): Promise<void> {
  const from = client.messages.length;
  await client.ok({ type: "agent.terminate", agent_id: agentId });
  await client.waitFor(
    (m) => m.type === "agent_status_changed" && m.agent_id === agentId && m.runtime_state === "stopped",
    from,
    60_000,
  );
}

describe.skipIf(!hasSshd)("ssh placement: checkpoints", () => {
  test("a turn's checkpoint is listed and diffed; a restore undoes the file on the placement", async () => {
    const { client, remote, repo, agentId } = await sshAgentInRepo();
    writes("made.txt", "made over ssh\n");
    await turn(client, agentId, "write a file");
    expect(readFileSync(join(repo, "made.txt"), "utf8")).toBe("made over ssh\n");

    const { checkpoints } = await client.ok({ type: "list_checkpoints", agent_id: agentId });
    expect(checkpoints.length).toBe(1);
    const taken: Msg = checkpoints[0];
    expect(taken.turn_id).toBeDefined();
    expect(taken.files_changed).toBe(1);
    const diff = await client.ok({
      type: "checkpoint_diff",
      agent_id: agentId,
      checkpoint_id: taken.checkpoint_id,
    });
    expect(diff.files.map((f: Msg) => f.path)).toEqual(["made.txt"]);
    // The shadow repository lives in the placement's home, not the daemon's.
    const [sessionId] = readdirSync(join(remote.home, "sessions"));
    expect(existsSync(join(remote.home, "checkpoints", String(sessionId)))).toBe(true);

    const restored = await client.ok({
      type: "restore_checkpoint",
      agent_id: agentId,
      checkpoint_id: taken.checkpoint_id,
    });
    expect(restored.restored).toEqual(["made.txt"]);
    expect(existsSync(join(repo, "made.txt"))).toBe(false);
    expect(readFileSync(join(repo, "a.txt"), "utf8")).toBe("committed\n");

    // Undoing the restore brings the file back.
    await client.ok({
      type: "restore_checkpoint",
      agent_id: agentId,
      checkpoint_id: restored.undo_checkpoint_id,
    });
    expect(readFileSync(join(repo, "made.txt"), "utf8")).toBe("made over ssh\n");
  });

  test("a conversation restore forks the session; the daemon's copy follows the fork across restarts", async () => {
    const { harness, client, remote, repo, agentId } = await sshAgentInRepo();
    writes("one.txt", "1\n");
    await turn(client, agentId, "PROMPT-ONE");
    writes("two.txt", "2\n");
    await turn(client, agentId, "PROMPT-TWO");
    const { checkpoints } = await client.ok({ type: "list_checkpoints", agent_id: agentId });
    const beforeTwo: Msg = checkpoints[0];

    const from = client.messages.length;
    const rewound = await client.ok({
      type: "restore_checkpoint",
      agent_id: agentId,
      checkpoint_id: beforeTwo.checkpoint_id,
      conversation: true,
    });
    expect(rewound.restored).toEqual(["two.txt"]);
    expect(existsSync(join(repo, "two.txt"))).toBe(false);
    const forkId = String(rewound.conversation.session_id);
    const sync = await client.waitAgent(agentId, "sync", from);
    expect(sync.session_id).toBe(forkId);

    writes("three.txt", "3\n");
    await turn(client, agentId, "PROMPT-THREE");
    expect(lastRequest()).not.toContain("PROMPT-TWO");

    // The daemon pulls the fork (not the session it left) after the turn that ended in it.
    const copy = mirrorPath(harness.home, "box", forkId);
    await until(() => existsSync(copy) && readFileSync(copy, "utf8").includes("PROMPT-THREE"));
    expect(readFileSync(copy, "utf8")).not.toContain("PROMPT-TWO");

    // A restarted runtime resumes the fork from the placement's file.
    await stopRuntime(client, agentId);
    llm().enqueue({ steps: [{ text: "resumed" }] });
    const fromFour = client.messages.length;
    await startingOk(client, { type: "prompt", agent_id: agentId, message: "PROMPT-FOUR" });
    await client.waitAgent(agentId, "turn_end", fromFour);
    await until(() => readFileSync(copy, "utf8").includes("PROMPT-FOUR"));
    let resumed = lastRequest();
    expect(resumed).toContain("PROMPT-THREE");
    expect(resumed).toContain("PROMPT-FOUR");
    expect(resumed).not.toContain("PROMPT-TWO");

    // The placement loses its files: the next runtime resumes the fork from the daemon's copy,
    // not the session before the restore.
    await stopRuntime(client, agentId);
    rmSync(join(remote.home, "sessions"), { recursive: true });
    llm().enqueue({ steps: [{ text: "from the copy" }] });
    const again = client.messages.length;
    await startingOk(client, { type: "prompt", agent_id: agentId, message: "PROMPT-FIVE" });
    await client.waitAgent(agentId, "turn_end", again);
    resumed = lastRequest();
    expect(resumed).toContain("PROMPT-ONE");
    expect(resumed).toContain("PROMPT-FOUR");
    expect(resumed).toContain("PROMPT-FIVE");
    expect(resumed).not.toContain("PROMPT-TWO");
    const late = await harness.unixClient();
    await late.ok({ type: "agent.attach", agent_id: agentId });
    expect((await late.waitAgent(agentId, "sync")).session_id).toBe(forkId);
  });
});
