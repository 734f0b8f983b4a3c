/**
 * The Changes view of an agent on an `ssh` placement (docs/placements.md, workspaces and the
 * Changes view), over a real OpenSSH server: the baseline is recorded in the placement's
 * repository through `shard placement git` there, a turn's write on the placement shows in
 * `agent.changes`, and a hostile repository config there runs nothing when the daemon's git
 * runs in it.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../agent/support/agent-process.ts";
import type { DaemonClient } from "../daemon/support/daemon-client.ts";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { makeRepo, sh } from "../daemon/workspaces/git-repo.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { loggedShard } from "./support/logged-shard.ts";
import { remoteShard } from "./support/remote-shard.ts";
import { createPlacedAgent, overSshOk, placeSshBox, useSshd } from "./support/ssh-test.ts";
import { hasSshd } from "./support/sshd.ts";

setDefaultTimeout(90_000);

if (!hasSshd)
  console.log(
    "test/placements/ssh-changes: SKIPPED: no /usr/sbin/sshd here (apt-get install openssh-server)",
  );

const llm = useMockLlmServer({ clearQueueBeforeEach: true });
const startHarness = useDaemonHarnesses(llm);
const server = useSshd();

async function sshAgentIn(cwd: string) {
  const harness = await startHarness();
  const remote = remoteShard(llm().url);
  const logged = loggedShard(remote.shard);
  placeSshBox(harness.home, server(), logged.shard);
  const client = await harness.unixClient();
  const agentId = await createPlacedAgent(client, cwd);
  return { harness, client, agentId, runs: logged.runs };
}

/** A turn on the placement that writes `path` (allowed through the permission dialog). */
async function turnWrites(client: DaemonClient, agentId: string, path: string, content: string) {
  llm().enqueue(
    { steps: [{ tool_call: { name: "write", args: { path, content } } }] },
    { steps: [{ text: "wrote it" }] },
  );
  const from = client.messages.length;
  await client.ok({ type: "prompt", agent_id: agentId, message: "write it" });
  const ask = await client.waitAgent(agentId, "permission_request", from);
  const allow = ask.choices.find((x: { intent: string }) => x.intent === "allow").id;
  client.send({
    type: "permission_response",
    agent_id: agentId,
    request_id: ask.request_id,
    choice_id: allow,
  });
  await client.waitAgent(agentId, "turn_end", from);
}

function byPath(files: { path: string; status: string; hunks: { lines: string[] }[] }[]) {
  return Object.fromEntries(
    files.map((f) => [f.path, { status: f.status, lines: f.hunks.flatMap((h) => h.lines) }]),
  );
}

describe.skipIf(!hasSshd)("agent.changes on an ssh placement", () => {
  test("the baseline is recorded there; the turn's write on the placement shows; the user's own edit is baseline", async () => {
    const repo = makeRepo();
    // Dirty before the agent exists: part of its baseline, never shown as its change.
    writeFileSync(join(repo, "README.md"), "hello\nuser's own edit\n");
    const { client, agentId, runs } = await sshAgentIn(repo);

    const untouched = await overSshOk(client, { type: "agent.changes", agent_id: agentId });
    expect(untouched.baseline.kind).toBe("agent_start");
    expect(untouched.files).toEqual([]);
    const baseline: string = untouched.baseline.commit;
    // Anchored in the placement's repository by a ref of ours.
    expect(sh(repo, "rev-parse", `refs/shard/baselines/${agentId}`)).toBe(baseline);
    // The git ran through the placement's shard, not the daemon's.
    expect(runs()).toContain("placement git");

    await turnWrites(client, agentId, "new.txt", "from the placement\n");
    const changed = await overSshOk(client, { type: "agent.changes", agent_id: agentId });
    expect(changed.baseline.commit).toBe(baseline);
    expect(byPath(changed.files)).toEqual({ "new.txt": { status: "added", lines: ["+from the placement"] } });
    // The user's index is untouched there too.
    expect(sh(repo, "ls-files", "new.txt")).toBe("");
    expect(client.resultViolations).toEqual([]);
  });

  test("a hostile repository config on the placement (fsmonitor, clean filter, hooks) runs nothing", async () => {
    const repo = makeRepo();
    const marks = tempDir("marks");
    sh(repo, "config", "core.fsmonitor", `touch ${marks}/fsmonitor #`);
    sh(repo, "config", "filter.evil.clean", `touch ${marks}/clean; cat`);
    sh(repo, "config", "filter.evil.process", `touch ${marks}/process`);
    sh(repo, "config", "core.hooksPath", join(repo, "hooks"));
    mkdirSync(join(repo, "hooks"));
    writeFileSync(join(repo, "hooks", "reference-transaction"), `#!/bin/sh\ntouch ${marks}/hook\n`, {
      mode: 0o755,
    });
    writeFileSync(join(repo, ".gitattributes"), "*.txt filter=evil\n");
    writeFileSync(join(repo, "a.txt"), "before\n");
    const { client, agentId, runs } = await sshAgentIn(repo);
    await overSshOk(client, { type: "agent.changes", agent_id: agentId });
    writeFileSync(join(repo, "a.txt"), "after\n");
    const answer = await overSshOk(client, { type: "agent.changes", agent_id: agentId });
    expect(byPath(answer.files)["a.txt"]).toEqual({ status: "modified", lines: ["-before", "+after"] });
    expect(runs()).toContain("placement git");
    for (const mark of ["fsmonitor", "clean", "process", "hook"])
      expect(existsSync(join(marks, mark))).toBe(false);
  });
});
