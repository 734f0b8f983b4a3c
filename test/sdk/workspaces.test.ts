/**
 * The daemon's workspaces through the SDK: create a worktree on a new branch with a fresh,
 * attached agent, run it there, list and inspect it, and retire it — a refusal is a ShardError
 * carrying the daemon's typed conflict data.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { connectDaemon } from "../../sdk/src/daemon-client.ts";
import { ShardError } from "../../sdk/src/errors.ts";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { makeRepo, sh } from "../daemon/workspaces/git-repo.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";

// Real git worktrees, daemons and agents on a machine shared with other work.
setDefaultTimeout(60_000);

const llm = useMockLlmServer();
const startDaemon = useDaemonHarnesses(llm);

describe("workspaces", () => {
  test("create a workspace, run its agent in the worktree, list, status, retire", async () => {
    const h = await startDaemon();
    const repo = makeRepo();
    const client = await connectDaemon({ socketPath: h.socketPath });
    const { workspace, agent, session_id } = await client.workspaces.create({
      cwd: repo,
      label: "fix the bug",
      model: "mock/chat",
    });
    expect(workspace.lifecycle).toBe("active");
    expect(agent.state.session_id).toBe(session_id);
    llm().enqueue(
      {
        steps: [{ tool_call: { name: "write", args: { path: "notes.txt", content: "in the worktree\n" } } }],
      },
      { steps: [{ text: "written" }] },
    );
    agent.onPermission(() => "allow");
    expect((await agent.run("write a note")).text).toBe("written");
    expect(existsSync(join(workspace.cwd, "notes.txt"))).toBe(true);
    expect(existsSync(join(repo, "notes.txt"))).toBe(false);

    const listed = await client.workspaces.list({ cwd: repo });
    expect(listed.map((w) => w.workspace_id)).toContain(workspace.workspace_id);
    expect((await client.workspaces.status(workspace.workspace_id)).bindings.length).toBeGreaterThan(0);

    const live = await client.workspaces
      .retire({ workspace_id: workspace.workspace_id })
      .catch((e: unknown) => e);
    expect(live).toBeInstanceOf(ShardError);
    expect(live).toMatchObject({
      code: "CONFLICT",
      data: { kind: "live", workspace_id: workspace.workspace_id },
    });

    sh(workspace.cwd, "add", "notes.txt");
    sh(workspace.cwd, "commit", "-q", "-m", "note");
    const diff = await client.workspaces.diff(workspace.workspace_id);
    expect(diff.files.map((f) => [f.path, f.status, f.additions])).toEqual([["notes.txt", "added", 1]]);
    await client.kill(agent.id!);
    const retired = await client.workspaces.retire({
      workspace_id: workspace.workspace_id,
      branch_disposition: "keep",
    });
    expect(retired.workspace.lifecycle).toBe("retired");
    expect(retired.branch_deleted).toBe(false);
    client.close();
  });
});
