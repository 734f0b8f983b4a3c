/**
 * `bun run pack`: the two publishable tarballs, in dist/packages/ (docs/publishing.md).
 *   @shard-dev/cli — `bin.shard`: the runtime's sources (Bun runs them as they are), the built
 *                    web client and the runtime dependencies.
 *   @shard-dev/sdk — the SDK's bundle and declarations (sdk/scripts/build.ts), depending on
 *                    the CLI of the same version so `spawnAgent()` finds the runtime.
 * Each is staged in dist/stage/<name>/ holding only what it needs, then packed with
 * `bun pm pack`. `--outdir DIR` writes the tarballs elsewhere (the publish test does).
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import rootPkg from "../package.json" with { type: "json" };
import sdkPkg from "../sdk/package.json" with { type: "json" };

const CLI_NAME = "@shard-dev/cli";

const root = resolve(import.meta.dir, "..");
const outAt = process.argv.indexOf("--outdir");
const out = outAt > 0 ? resolve(process.argv[outAt + 1] ?? "") : join(root, "dist/packages");
const stage = join(root, "dist/stage");

function run(argv: string[], cwd = root): string {
  const proc = Bun.spawnSync(argv, { cwd, stdout: "pipe", stderr: "inherit" });
  if (proc.exitCode !== 0) {
    console.error(`pack: ${argv.join(" ")} failed (exit ${proc.exitCode})`);
    process.exit(1);
  }
  return proc.stdout.toString();
}

function writeJson(path: string, value: object): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

function pack(dir: string): string {
  const file = run([process.execPath, "pm", "pack", "--quiet", "--ignore-scripts", "--destination", out], dir)
    .trim()
    .split("\n")
    .at(-1);
  return file ?? "";
}

rmSync(stage, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// The CLI: src/ (the runtime reads ../../package.json for its version and web/dist beside src).
run([process.execPath, "run", "build:web"]);
const cli = join(stage, "cli");
mkdirSync(cli, { recursive: true });
cpSync(join(root, "src"), join(cli, "src"), { recursive: true });
cpSync(join(root, "web/dist"), join(cli, "web/dist"), { recursive: true });
cpSync(join(root, "README.md"), join(cli, "README.md"));
writeJson(join(cli, "package.json"), {
  name: CLI_NAME,
  version: rootPkg.version,
  description: rootPkg.description,
  type: "module",
  bin: { shard: "src/cli/main.ts" },
  engines: rootPkg.engines,
  dependencies: rootPkg.dependencies,
});

// The SDK: its build, plus the CLI as a dependency (the runtime `spawnAgent()` starts).
const sdk = join(stage, "sdk");
run([process.execPath, join(root, "sdk/scripts/build.ts"), "--outdir", sdk]);
const sdkManifest: { dependencies?: Record<string, string> } = await Bun.file(
  join(sdk, "package.json"),
).json();
writeJson(join(sdk, "package.json"), {
  ...sdkManifest,
  dependencies: { ...sdkManifest.dependencies, [CLI_NAME]: sdkPkg.version },
});

for (const dir of [cli, sdk]) console.log(pack(dir));
