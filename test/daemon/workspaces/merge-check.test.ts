/**
 * "Merged" is decided against real repositories: a merge commit and a fast-forward are
 * reachable, a rebase merge is patch-equivalent, a squash merge is tree-equivalent; a branch
 * with work the target lacks is unmerged (and must never be deleted without confirmation).
 */
import { describe, expect, test } from "bun:test";
import { mergeState } from "../../../src/daemon/workspaces/merge-check.ts";
import { git } from "../../../src/git/git.ts";
import { commitFile, makeRepo, sh } from "./git-repo.ts";

function repoWithFeature(): string {
  const repo = makeRepo();
  sh(repo, "checkout", "-q", "-b", "feature");
  commitFile(repo, "a.txt", "a\n");
  commitFile(repo, "b.txt", "b\n");
  sh(repo, "checkout", "-q", "main");
  commitFile(repo, "main.txt", "main moved on\n");
  return repo;
}

describe("mergeState", () => {
  test("a merge commit makes the branch reachable", async () => {
    const repo = repoWithFeature();
    sh(repo, "merge", "-q", "--no-ff", "-m", "merge feature", "feature");
    expect(await mergeState(repo, "feature", "main")).toEqual({ merged: true, how: "reachable" });
  });

  test("a rebase merge is recognised by patch id", async () => {
    const repo = repoWithFeature();
    sh(repo, "cherry-pick", "main..feature");
    expect(await mergeState(repo, "feature", "main")).toEqual({ merged: true, how: "patch_equivalent" });
  });

  test("a squash merge is recognised by its tree", async () => {
    const repo = repoWithFeature();
    sh(repo, "merge", "-q", "--squash", "feature");
    sh(repo, "commit", "-q", "-m", "squashed feature");
    expect(await mergeState(repo, "feature", "main")).toEqual({ merged: true, how: "tree_equivalent" });
  });

  test("a branch with work the target lacks is unmerged, even after a partial pick", async () => {
    const repo = repoWithFeature();
    expect((await mergeState(repo, "feature", "main")).merged).toBe(false);
    const first = sh(repo, "rev-list", "--reverse", "main..feature").split("\n")[0] ?? "";
    sh(repo, "cherry-pick", first);
    const state = await mergeState(repo, "feature", "main");
    expect(state).toEqual({ merged: false, reason: "feature has 1 commit(s) whose changes are not in main" });
  });

  test("an unknown target is not merged, and says so", async () => {
    const repo = repoWithFeature();
    const state = await mergeState(repo, "feature", "no-such-branch");
    expect(state.merged).toBe(false);
  });
});

describe("git output is bounded", () => {
  test("past maxStdoutBytes git is stopped and the beginning is kept, marked cut", async () => {
    const repo = repoWithFeature();
    const full = await git(repo, ["log", "--all", "--format=%H %s"]);
    const cut = await git(repo, ["log", "--all", "--format=%H %s"], { maxStdoutBytes: 16 });
    expect(cut.cut).toBe(true);
    expect(cut.stdout).toBe(full.stdout.slice(0, 16));
    expect(full.cut).toBeUndefined();
  });
});
