/**
 * `shard placement git`, the far side of git on a placement (src/placements/git-request.ts), run
 * as the daemon runs it: one JSON request on stdin. A request that is not one is refused with a
 * clear message and exit 2; a folder that is no repository, or is gone, is git's failure as an
 * answer; `remove_below` removes nothing outside its folder.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SHARD_MAIN, tempDir } from "../agent/support/agent-process.ts";
import { CHILD_ENV } from "../support/child-env.ts";

async function placementGit(input: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([process.execPath, SHARD_MAIN, "placement", "git"], {
    stdin: new TextEncoder().encode(input),
    stdout: "pipe",
    stderr: "pipe",
    env: { ...CHILD_ENV, SHARD_HOME: tempDir("far-home"), HOME: tempDir("far-user") },
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

describe("shard placement git", () => {
  test("not a request: exit 2 and a clear message, nothing run", async () => {
    for (const input of [
      "",
      "not json",
      '{"op":"git","cwd":"relative","args":[]}',
      '{"op":"rm","path":"/"}',
    ]) {
      const answer = await placementGit(input);
      expect({ input, code: answer.code, stdout: answer.stdout }).toEqual({ input, code: 2, stdout: "" });
      expect(answer.stderr).toContain("the request on stdin is not a git request");
    }
  });

  test("git's own failure is an answer: no repository, a folder that is gone", async () => {
    const plain = tempDir("plain");
    const notRepo = JSON.parse(
      (await placementGit(JSON.stringify({ op: "git", cwd: plain, args: ["status"] }))).stdout,
    );
    expect(notRepo.code).not.toBe(0);
    expect(notRepo.stderr).toContain("not a git repository");
    const gone = JSON.parse(
      (await placementGit(JSON.stringify({ op: "git", cwd: join(plain, "gone"), args: ["status"] }))).stdout,
    );
    expect(gone.code).not.toBe(0);
    const snapshot = JSON.parse((await placementGit(JSON.stringify({ op: "snapshot", cwd: plain }))).stdout);
    expect(snapshot).toEqual({ ok: false, notGit: true });
  });

  test("remove_below removes only below its folder, a symlink out of it included", async () => {
    const dir = tempDir("worktrees");
    const outside = tempDir("outside");
    writeFileSync(join(outside, "keep.txt"), "mine\n");
    symlinkSync(outside, join(dir, "link-out"));
    const escaped = JSON.parse(
      (await placementGit(JSON.stringify({ op: "remove_below", path: join(dir, "link-out"), dir }))).stdout,
    );
    expect(escaped).toEqual({ removed: false });
    expect(existsSync(join(outside, "keep.txt"))).toBe(true);
    mkdirSync(join(dir, "ws_1"));
    const inside = JSON.parse(
      (await placementGit(JSON.stringify({ op: "remove_below", path: join(dir, "ws_1"), dir }))).stdout,
    );
    expect(inside).toEqual({ removed: true });
    expect(existsSync(join(dir, "ws_1"))).toBe(false);
  });
});
