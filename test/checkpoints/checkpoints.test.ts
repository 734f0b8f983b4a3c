/**
 * The checkpoint engine against real git repositories and a real `bash`: a turn's edits and a
 * command's edits are both undone, files created since go and deleted ones come back, ignored
 * files are never touched, the user's HEAD, refs, index, stash and hooks stay byte-identical,
 * a file changed outside the checkpoints is reported and kept unless forced, a restore can be
 * undone, a hostile repository config runs nothing, retention bounds what is kept, and a
 * directory that is not a git repository works too.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Checkpoints, type CheckpointsOptions } from "../../src/checkpoints/checkpoints.ts";
import { shadowBytes } from "../../src/checkpoints/retention.ts";
import { type GitRunner, git } from "../../src/git/git.ts";
import { makeRepo, sh } from "../daemon/workspaces/git-repo.ts";
import { makeTempDir } from "../support/temp-dirs.ts";
import { userGitState } from "./user-git-state.ts";

setDefaultTimeout(60_000);

async function engine(cwd: string, retention?: CheckpointsOptions["retention"]) {
  const gitDir = join(makeTempDir("shard-checkpoints-"), "agent");
  const opened = await Checkpoints.open({ gitDir, cwd, ...(retention ? { retention } : {}) });
  if (!opened.ok) throw new Error(opened.error.message);
  return { cp: opened.checkpoints, gitDir };
}

/** The end of a turn: what the agent did is known, later edits are someone else's. */
async function settle(cp: Checkpoints): Promise<number> {
  const settled = await cp.settle();
  if (!settled.ok) throw new Error(settled.error.message);
  return settled.files_changed;
}

async function checkpoint(cp: Checkpoints, label: string) {
  const made = await cp.checkpoint(label);
  if (!made.ok) throw new Error(made.error.message);
  return made.checkpoint;
}

function bash(cwd: string, script: string): void {
  const run = Bun.spawnSync(["bash", "-c", script], { cwd, stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`bash: ${run.stderr.toString()}`);
}

const read = (dir: string, name: string) => readFileSync(join(dir, name), "utf8");

describe("checkpoints", () => {
  test("turn by turn: restoring undoes write and bash edits and leaves the user's repository byte-identical", async () => {
    const repo = makeRepo();
    writeFileSync(join(repo, "a.txt"), "committed\n");
    writeFileSync(join(repo, ".gitignore"), "node_modules/\n*.log\n");
    sh(repo, "add", ".");
    sh(repo, "commit", "-q", "-m", "a.txt");
    // A stash and a hook of the user's own, to show they stay as they are.
    writeFileSync(join(repo, "README.md"), "stashed\n");
    sh(repo, "stash", "-q");
    writeFileSync(join(repo, ".git", "hooks", "pre-commit"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    mkdirSync(join(repo, "node_modules", "dep"), { recursive: true });
    writeFileSync(join(repo, "node_modules", "dep", "index.js"), "module.exports = 1;\n");
    writeFileSync(join(repo, "build.log"), "built\n");
    const before = userGitState(repo);
    const { cp, gitDir } = await engine(repo);

    const turn1 = await checkpoint(cp, "turn 1");
    writeFileSync(join(repo, "a.txt"), "turn 1\n"); // what the write tool does
    expect(await settle(cp)).toBe(1);
    const turn2 = await checkpoint(cp, "turn 2");
    bash(repo, "echo 'turn 2' > a.txt && echo new > b.txt && echo more >> build.log");
    expect(await settle(cp)).toBe(2);

    const listed = await cp.list();
    if (!listed.ok) throw new Error(listed.error.message);
    expect(listed.checkpoints.map((c) => [c.checkpoint_id, c.label, c.files_changed])).toEqual([
      [turn2.checkpoint_id, "turn 2", 1],
      [turn1.checkpoint_id, "turn 1", 0],
    ]);

    const undone2 = await cp.restore(turn2.checkpoint_id);
    expect(undone2.ok).toBe(true);
    if (undone2.ok) expect(undone2.files.sort()).toEqual(["a.txt", "b.txt"]);
    expect(read(repo, "a.txt")).toBe("turn 1\n");
    expect(existsSync(join(repo, "b.txt"))).toBe(false);

    const undone1 = await cp.restore(turn1.checkpoint_id);
    expect(undone1.ok).toBe(true);
    expect(read(repo, "a.txt")).toBe("committed\n");

    // Ignored files were neither copied nor touched.
    expect(read(repo, "build.log")).toBe("built\nmore\n");
    expect(read(repo, join("node_modules", "dep", "index.js"))).toBe("module.exports = 1;\n");
    const shadowFiles = sh(repo, `--git-dir=${gitDir}`, "ls-tree", "-r", "--name-only", turn2.checkpoint_id);
    expect(shadowFiles.split("\n").sort()).toEqual([".gitignore", "README.md", "a.txt"]);
    // The user's store is an alternate, and the user's .git is as it was.
    expect(read(gitDir, join("objects", "info", "alternates")).trim()).toBe(join(repo, ".git", "objects"));
    expect(userGitState(repo)).toEqual(before);
    expect(sh(repo, "stash", "list").split("\n")).toHaveLength(1);
  });

  test("a restore is undone by restoring the checkpoint it took first", async () => {
    const repo = makeRepo();
    const { cp } = await engine(repo);
    const turn1 = await checkpoint(cp, "turn 1");
    bash(repo, "echo changed > README.md && mkdir -p src && echo new > src/b.txt");
    await settle(cp);
    const restored = await cp.restore(turn1.checkpoint_id);
    if (!restored.ok) throw new Error(restored.error.message);
    expect(read(repo, "README.md")).toBe("hello\n");
    expect(existsSync(join(repo, "src"))).toBe(false);

    const redone = await cp.restore(restored.undo.checkpoint_id);
    expect(redone.ok).toBe(true);
    expect(read(repo, "README.md")).toBe("changed\n");
    expect(read(repo, "src/b.txt")).toBe("new\n");
  });

  test("a file changed outside the checkpoints is reported and not overwritten without force", async () => {
    const repo = makeRepo();
    writeFileSync(join(repo, "notes.txt"), "mine\n");
    const { cp } = await engine(repo);
    const turn1 = await checkpoint(cp, "turn 1");
    writeFileSync(join(repo, "README.md"), "agent\n");
    writeFileSync(join(repo, "notes.txt"), "agent\n");
    await settle(cp);
    await checkpoint(cp, "turn 2");
    writeFileSync(join(repo, "notes.txt"), "the user's edit\n"); // by the person, after the last checkpoint

    const refused = await cp.restore(turn1.checkpoint_id);
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.code).toBe("CONFLICT");
      expect(refused.conflicts).toEqual(["notes.txt"]);
    }
    expect(read(repo, "notes.txt")).toBe("the user's edit\n");
    expect(read(repo, "README.md")).toBe("agent\n");

    const forced = await cp.restore(turn1.checkpoint_id, { force: true });
    expect(forced.ok).toBe(true);
    expect(read(repo, "notes.txt")).toBe("mine\n");
    expect(read(repo, "README.md")).toBe("hello\n");
    // The user's edit is in the checkpoint taken before the restore: it can still be had back.
    if (forced.ok) {
      const back = await cp.restore(forced.undo.checkpoint_id);
      expect(back.ok).toBe(true);
      expect(read(repo, "notes.txt")).toBe("the user's edit\n");
    }
  });

  test("an unknown checkpoint is NOT_FOUND", async () => {
    const { cp } = await engine(makeRepo());
    const answer = await cp.restore("0".repeat(40));
    expect(answer.ok).toBe(false);
    if (!answer.ok) expect(answer.error.code).toBe("NOT_FOUND");
  });

  test("a hostile repository config (fsmonitor, clean and smudge filters, hooks) runs nothing", async () => {
    const repo = makeRepo();
    const marks = makeTempDir("shard-marks-");
    sh(repo, "config", "core.fsmonitor", `touch ${marks}/fsmonitor #`);
    sh(repo, "config", "filter.evil.clean", `touch ${marks}/clean; cat`);
    sh(repo, "config", "filter.evil.smudge", `touch ${marks}/smudge; cat`);
    sh(repo, "config", "filter.evil.process", `touch ${marks}/process`);
    sh(repo, "config", "core.hooksPath", join(repo, "hooks"));
    mkdirSync(join(repo, "hooks"));
    for (const hook of ["reference-transaction", "post-checkout", "post-index-change"]) {
      writeFileSync(join(repo, "hooks", hook), `#!/bin/sh\ntouch ${marks}/${hook}\n`, { mode: 0o755 });
    }
    writeFileSync(join(repo, ".gitattributes"), "*.txt filter=evil\n");
    writeFileSync(join(repo, "a.txt"), "before\n");
    const { cp } = await engine(repo);
    const first = await checkpoint(cp, "turn 1");
    writeFileSync(join(repo, "a.txt"), "after\n");
    await checkpoint(cp, "turn 2");
    const restored = await cp.restore(first.checkpoint_id);
    expect(restored.ok).toBe(true);
    expect(read(repo, "a.txt")).toBe("before\n");
    expect(readdirSync(marks)).toEqual([]);
  });

  test("a directory that is not a git repository has checkpoints too, .gitignore followed", async () => {
    const dir = makeTempDir("shard-plain-");
    writeFileSync(join(dir, ".gitignore"), "out/\n");
    writeFileSync(join(dir, "a.txt"), "one\n");
    writeFileSync(join(dir, "c.txt"), "kept\n");
    mkdirSync(join(dir, "out"));
    writeFileSync(join(dir, "out", "bundle.js"), "built\n");
    const { cp, gitDir } = await engine(dir);
    const first = await checkpoint(cp, "turn 1");
    bash(dir, "echo two > a.txt && rm c.txt && echo b > b.txt && echo rebuilt > out/bundle.js");
    await settle(cp);
    const restored = await cp.restore(first.checkpoint_id);
    expect(restored.ok).toBe(true);
    expect(read(dir, "a.txt")).toBe("one\n");
    expect(read(dir, "c.txt")).toBe("kept\n");
    expect(existsSync(join(dir, "b.txt"))).toBe(false);
    expect(read(dir, "out/bundle.js")).toBe("rebuilt\n");
    expect(existsSync(join(dir, ".git"))).toBe(false);
    expect(existsSync(join(gitDir, "objects", "info", "alternates"))).toBe(false);
  });

  test("retention keeps the last N checkpoints and at most M bytes", async () => {
    const dir = makeTempDir("shard-retention-");
    const { cp, gitDir } = await engine(dir, { maxCheckpoints: 3, maxBytes: 2_500_000 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await checkpoint(cp, `turn ${i}`)).checkpoint_id);
      // The turn writes; its end is settled, which keeps the tree it left for its diff.
      writeFileSync(join(dir, "small.txt"), `${i}\n`);
      expect((await cp.settle()).ok).toBe(true);
    }
    const byCount = await cp.list();
    if (!byCount.ok) throw new Error(byCount.error.message);
    expect(byCount.checkpoints.map((c) => c.checkpoint_id)).toEqual(ids.slice(2).reverse());
    const gone = await cp.restore(ids[0] ?? "");
    expect(gone.ok ? "" : gone.error.code).toBe("NOT_FOUND");
    // What the dropped turns left goes with them; the kept ones still have their diff.
    const shadowRefs: GitRunner = (args, options) => git(dir, args, { ...options, env: { GIT_DIR: gitDir } });
    const afterRefs = await shadowRefs(["for-each-ref", "--format=%(refname)", "refs/shard/after/"]);
    expect(afterRefs.stdout.trim().split("\n").toSorted()).toEqual(
      ids
        .slice(2)
        .map((id) => `refs/shard/after/${id}`)
        .toSorted(),
    );
    const lastDiff = await cp.diff(ids[4] ?? "");
    expect(lastDiff.ok ? lastDiff.files.map((f) => `${f.status} ${f.path}`) : lastDiff.error.message).toEqual(
      ["modified small.txt"],
    );

    // A megabyte that does not compress, new at every checkpoint: only two fit in 2.5 MB.
    for (let i = 0; i < 3; i++) {
      writeFileSync(join(dir, "big.bin"), randomBytes(1024 * 1024));
      await checkpoint(cp, `big ${i}`);
    }
    const bySize = await cp.list();
    if (!bySize.ok) throw new Error(bySize.error.message);
    expect(bySize.checkpoints.map((c) => c.label)).toEqual(["big 2", "big 1"]);
    const shadow: GitRunner = (args, options) => git(dir, args, { ...options, env: { GIT_DIR: gitDir } });
    expect(await shadowBytes(shadow)).toBeLessThanOrEqual(2_500_000);
  });
});
