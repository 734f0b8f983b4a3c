/**
 * What the sandbox costs per `bash` call: the bash tool runs the same command unconfined and
 * under `workspace-write` (bubblewrap), interleaved, in a git repository with a
 * `$SHARD_HOME` like a user's. Prints min / median / p90 per mode and the median added.
 * `--allow-host` adds the network allowlist (the filtering proxy and the bridge in each sandbox).
 * Usage: bun bench/sandbox.ts [--calls 60] [--command 'true'] [--allow-host localhost]
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolContext } from "../src/contracts/tool.ts";
import { AgentSandbox } from "../src/sandbox/agent-sandbox.ts";
import { probeBubblewrap } from "../src/sandbox/bubblewrap-probe.ts";
import { resolveSandboxSettings } from "../src/sandbox/sandbox-settings.ts";
import { createBashTool } from "../src/tools/bash.ts";

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const calls = Number(arg("--calls") ?? 60);
const command = arg("--command") ?? "true";
const allowHost = arg("--allow-host");

const probe = probeBubblewrap(process.env);
if (!probe.ok) {
  console.error(`no sandbox here: ${probe.reason}`);
  process.exit(1);
}

const root = realpathSync(mkdtempSync(join(tmpdir(), "shard-bench-sandbox-")));
const home = join(root, "home");
const cwd = join(root, "project");
mkdirSync(join(home, "sessions"), { recursive: true });
mkdirSync(cwd);
writeFileSync(join(cwd, "README.md"), "bench\n");
Bun.spawnSync(["git", "init", "-q"], { cwd });

const settings = resolveSandboxSettings(
  { mode: "workspace-write", ...(allowHost !== undefined ? { networkAllow: [allowHost] } : {}) },
  {},
  home,
);
const opened = AgentSandbox.open({ settings, cwd, home, env: process.env });
if (!opened.ok) throw new Error(opened.error.message);
const sandbox = opened.sandbox;
const confined = createBashTool({ sandbox });
const plain = createBashTool();
const ctx: ToolContext = {
  cwd,
  signal: new AbortController().signal,
  toolCallId: "bench",
  askUser: async () => null,
};

async function once(tool: typeof plain): Promise<number> {
  const started = performance.now();
  const result = await tool.execute({ command }, ctx);
  if (result.is_error) throw new Error(`the command failed: ${JSON.stringify(result.content)}`);
  return performance.now() - started;
}

const firstConfined = await once(confined);
const times = { off: [] as number[], "workspace-write": [] as number[] };
for (let i = 0; i < calls; i++) {
  times.off.push(await once(plain));
  times["workspace-write"].push(await once(confined));
}
sandbox.close();
rmSync(root, { recursive: true, force: true });

const stats = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { min: sorted[0] ?? 0, median: at(0.5), p90: at(0.9) };
};
const fmt = (n: number) => n.toFixed(1);
const network = allowHost === undefined ? "no network" : `allowlist: ${allowHost}`;
console.log(`bash \`${command}\`, ${calls} calls per mode, interleaved (bwrap at ${probe.path}; ${network})`);
console.log("| mode | min ms | median ms | p90 ms |");
console.log("|---|---|---|---|");
for (const [mode, xs] of Object.entries(times)) {
  const s = stats(xs);
  console.log(`| ${mode} | ${fmt(s.min)} | ${fmt(s.median)} | ${fmt(s.p90)} |`);
}
const added = stats(times["workspace-write"]).median - stats(times.off).median;
console.log(`added per call (median): ${fmt(added)} ms; the first confined call: ${fmt(firstConfined)} ms`);
