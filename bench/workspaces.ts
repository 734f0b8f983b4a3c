/**
 * Workspace benchmark (issue 13): `workspace.create` → response (a new branch, a worktree of a
 * 10,000-file repository, a fresh agent started in it) beside a bare `git worktree add` of the
 * same repository, interleaved run by run.
 * Usage: bun bench/workspaces.ts [--runs 7] [--files 10000]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DaemonStream } from "../src/cli/daemon-stream.ts";
import { startDaemon } from "../src/daemon/daemon.ts";
import { startMockLlmServer } from "../test/support/mock-llm/server.ts";
import { benchHome, benchTempDir } from "./support/bench-home.ts";

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) || fallback : fallback;
};
const runs = arg("--runs", 7);
const files = arg("--files", 10_000);

function sh(cwd: string, ...args: string[]): void {
  const run = Bun.spawnSync(["git", ...args], { cwd, stdout: "ignore", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString()}`);
}

const repo = benchTempDir("repo");
sh(repo, "init", "-q", "-b", "main");
for (let i = 0; i < files; i++) {
  const dir = join(repo, `d${i % 100}`);
  if (i < 100) mkdirSync(dir);
  writeFileSync(join(dir, `f${i}.txt`), `file ${i}\n`);
}
sh(repo, "add", ".");
sh(repo, "-c", "user.name=b", "-c", "user.email=b@x", "commit", "-q", "-m", "10k files");

const server = await startMockLlmServer({ recordRequests: false });
const home = benchHome(server.url);
const started = await startDaemon({
  home,
  port: 0,
  env: { PATH: process.env.PATH ?? "", HOME: home, SHARD_HOME: home },
});
if (!started.ok) throw new Error(started.message);
const opened = await DaemonStream.open(home);
if (!opened.ok) throw new Error(opened.message);
const stream = opened.stream;

const bare: number[] = [];
const create: number[] = [];
const plain = benchTempDir("plain-worktrees");
for (let i = 0; i < runs; i++) {
  let t = performance.now();
  sh(repo, "worktree", "add", "--quiet", "-b", `bare-${i}`, join(plain, `w${i}`), "main");
  bare.push(performance.now() - t);
  t = performance.now();
  const answer = await stream.request({
    type: "workspace.create",
    cwd: repo,
    label: `bench ${i}`,
    model: "mock/chat",
  });
  create.push(performance.now() - t);
  if (!answer.ok || !answer.response.success)
    throw new Error(`workspace.create failed: ${JSON.stringify(answer)}`);
}
stream.close();
await started.daemon.stop(true);
await server.close();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
console.log(`repository: ${files} files; ${runs} interleaved runs`);
console.log(`git worktree add (bare):          median ${median(bare).toFixed(0)} ms`);
console.log(
  `workspace.create → response:      median ${median(create).toFixed(0)} ms (includes starting the agent)`,
);
console.log(`ratio: ${(median(create) / median(bare)).toFixed(2)}×  (aim ≤ 1.5×)`);
