/**
 * Checkpoint cost (issue 24): a git repository of 20,000 committed files (plus an ignored
 * node_modules that must cost nothing), 10 files changed between checkpoints, 100 checkpoints.
 * Reports the first checkpoint (the shadow index is built once), then the median and worst of
 * the next ones, a restore, and the disk the shadow repository uses after them all. The same
 * tree in a directory that is not a git repository (no alternate) is measured too.
 * Usage: bun bench/checkpoints.ts [--files 20000] [--checkpoints 100]
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Checkpoints } from "../src/checkpoints/checkpoints.ts";
import { benchTempDir } from "./support/bench-home.ts";

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) || fallback : fallback;
};
const files = arg("--files", 20_000);
const rounds = arg("--checkpoints", 100);

function sh(cwd: string, ...args: string[]): void {
  const run = Bun.spawnSync(["git", ...args], { cwd, stdout: "ignore", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString()}`);
}

function makeTree(dir: string): void {
  for (let i = 0; i < files; i++) {
    const sub = join(dir, `d${i % 200}`);
    if (i < 200) mkdirSync(sub);
    writeFileSync(join(sub, `f${i}.ts`), `export const value${i} = ${i};\n// ${"x".repeat(i % 400)}\n`);
  }
  writeFileSync(join(dir, ".gitignore"), "node_modules/\n");
  mkdirSync(join(dir, "node_modules", "dep"), { recursive: true });
  for (let i = 0; i < 2000; i++) writeFileSync(join(dir, "node_modules", "dep", `m${i}.js`), `${i}\n`);
}

/** Disk blocks actually used, in bytes. */
function diskBytes(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.blocks * 512;
  return readdirSync(path).reduce((sum, name) => sum + diskBytes(join(path, name)), stat.blocks * 512);
}

const ms = (t: number) => `${t.toFixed(0)} ms`;
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;

async function measure(kind: string, git: boolean): Promise<void> {
  const dir = benchTempDir("checkpoints-tree");
  makeTree(dir);
  if (git) {
    sh(dir, "init", "-q", "-b", "main");
    sh(dir, "add", ".");
    sh(dir, "-c", "user.name=b", "-c", "user.email=b@x", "commit", "-q", "-m", "tree");
  }
  const gitDir = join(benchTempDir("checkpoints-shadow"), "agent");
  const opened = await Checkpoints.open({ gitDir, cwd: dir, retention: { maxCheckpoints: rounds + 10 } });
  if (!opened.ok) throw new Error(opened.error.message);
  const cp = opened.checkpoints;
  const timed = async () => {
    const started = performance.now();
    const made = await cp.checkpoint("turn");
    if (!made.ok) throw new Error(made.error.message);
    return { ms: performance.now() - started, id: made.checkpoint.checkpoint_id };
  };
  const first = await timed();
  const times: number[] = [];
  for (let round = 1; round < rounds; round++) {
    for (let k = 0; k < 10; k++) {
      const i = (round * 37 + k * 997) % files;
      writeFileSync(join(dir, `d${i % 200}`, `f${i}.ts`), `export const value${i} = ${round};\n`);
    }
    times.push((await timed()).ms);
  }
  times.sort((a, b) => a - b);
  const restoreStarted = performance.now();
  const restored = await cp.restore(first.id, { force: true });
  if (!restored.ok) throw new Error(restored.error.message);
  const restoreMs = performance.now() - restoreStarted;
  console.log(
    `| ${kind} | first ${ms(first.ms)}; then median ${ms(times[Math.floor(times.length / 2)] ?? 0)}, worst ${ms(times.at(-1) ?? 0)} | ${mb(diskBytes(gitDir))} after ${rounds + 1} checkpoints | restore of ${restored.files.length} files: ${ms(restoreMs)} |`,
  );
}

console.log(`${files.toLocaleString("en")} files, 10 changed between checkpoints, ${rounds} checkpoints`);
console.log("| tree | checkpoint | shadow on disk | restore |");
console.log("|---|---|---|---|");
await measure("git repository (alternate)", true);
await measure("not a git repository", false);
