/**
 * The publish path with a real registry (docs/publishing.md): `bun run pack`'s two tarballs are
 * published to a local Verdaccio, then an empty folder uses them as a user would —
 * `bunx @shard-dev/cli --version`, `bun add @shard-dev/sdk` and the README's quick start,
 * against the mock model server, with no `shard` on PATH. Only the 127.0.0.1 registry started
 * here is ever published to. Skipped, saying why, only when Verdaccio cannot be installed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import rootPkg from "../../package.json" with { type: "json" };
import { tempDir } from "../agent/support/agent-process.ts";
import { startMockLlmServer } from "../support/mock-llm/index.ts";
import type { MockLlmServer } from "../support/mock-llm/types.ts";
import {
  ensureVerdaccio,
  type LocalRegistry,
  startVerdaccio,
  VERDACCIO_VERSION,
} from "./support/verdaccio.ts";

const ROOT = resolve(import.meta.dir, "../..");
const STEP_TIMEOUT_MS = 120_000;

const verdaccio = await ensureVerdaccio();
if (!verdaccio.ok)
  console.warn(
    `publish test skipped: Verdaccio ${VERDACCIO_VERSION} could not be installed: ${verdaccio.reason}`,
  );

/** The README's "Quick start" section: its code blocks, in order. */
function quickStart(): { lang: string; code: string }[] {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf("\n## Quick start\n");
  const end = readme.indexOf("\n## ", start + 1);
  const section = readme.slice(start, end);
  return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({
    lang: m[1] ?? "",
    code: m[2] ?? "",
  }));
}

/** The quick start's shell line that starts with `prefix`, without its comment. */
function quickStartLine(prefix: string): string {
  const lines = quickStart()
    .filter((b) => b.lang === "sh")
    .flatMap((b) => b.code.split("\n"));
  const line = lines.find((l) => l.startsWith(prefix));
  if (line === undefined) throw new Error(`README quick start has no line starting with ${prefix}`);
  return line.replace(/\s+#.*$/, "");
}

interface Ran {
  exitCode: number;
  stdout: string;
  stderr: string;
}

async function run(argv: string[], cwd: string, env: Record<string, string>): Promise<Ran> {
  const proc = Bun.spawn(argv, { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { exitCode, stdout, stderr };
}

describe.skipIf(!verdaccio.ok)("publishing to a local registry", () => {
  let registry: LocalRegistry | undefined;
  let llm: MockLlmServer | undefined;
  let consumer = "";
  let env: Record<string, string> = {};

  beforeAll(async () => {
    if (!verdaccio.ok) return;
    const work = tempDir("publish");
    const packages = join(work, "packages");
    const packed = await run([process.execPath, "scripts/pack.ts", "--outdir", packages], ROOT, {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
    });
    expect({ exitCode: packed.exitCode, stderr: packed.exitCode === 0 ? "" : packed.stderr }).toEqual({
      exitCode: 0,
      stderr: "",
    });
    registry = await startVerdaccio(verdaccio.bin, join(work, "registry"));
    // Publishing anywhere but the registry started here is never acceptable.
    expect(registry.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const npmrc = join(work, ".npmrc");
    writeFileSync(
      npmrc,
      `registry=${registry.url}\n//${registry.url.slice("http://".length)}:_authToken=${registry.token}\n`,
    );
    for (const name of ["cli", "sdk"]) {
      const tarball = join(packages, `shard-dev-${name}-${rootPkg.version}.tgz`);
      const published = await run(
        ["npm", "publish", tarball, "--registry", registry.url, "--userconfig", npmrc, "--access", "public"],
        work,
        { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work },
      );
      expect({
        name,
        exitCode: published.exitCode,
        stderr: published.exitCode === 0 ? "" : published.stderr,
      }).toEqual({
        name,
        exitCode: 0,
        stderr: "",
      });
    }

    llm = await startMockLlmServer({ port: 0 });
    // A user's empty folder: the registry configured, fresh caches (the version never changes
    // between runs, so a cached tarball would hide a new one), and no `shard` anywhere on PATH.
    consumer = tempDir("consumer");
    writeFileSync(join(consumer, "bunfig.toml"), `[install]\nregistry = "${registry.url}"\n`);
    const bin = join(work, "bin");
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, "bun"));
    symlinkSync(process.execPath, join(bin, "bunx"));
    const home = join(work, "home");
    mkdirSync(home);
    const tmp = join(work, "tmp");
    mkdirSync(tmp);
    env = {
      PATH: `${bin}:/usr/bin:/bin`,
      HOME: home,
      TMPDIR: tmp,
      BUN_INSTALL_CACHE_DIR: join(work, "bun-cache"),
      NPM_CONFIG_REGISTRY: registry.url,
      OPENAI_BASE_URL: `${llm.url}/v1`,
    };
  }, 170_000);

  afterAll(async () => {
    await registry?.stop();
    await llm?.close();
  });

  test(
    "bunx @shard-dev/cli --version runs the published CLI",
    async () => {
      const ran = await run(["bunx", "@shard-dev/cli", "--version"], consumer, env);
      expect({
        stdout: ran.stdout.trim(),
        exitCode: ran.exitCode,
        stderr: ran.exitCode === 0 ? "" : ran.stderr,
      }).toEqual({
        stdout: rootPkg.version,
        exitCode: 0,
        stderr: "",
      });
    },
    STEP_TIMEOUT_MS,
  );

  test(
    "the README's `bunx @shard-dev/cli run` answers from the model server",
    async () => {
      llm?.enqueue({ steps: [{ text: "quick start via bunx" }] });
      const ran = await run(["sh", "-c", quickStartLine("bunx @shard-dev/cli run ")], consumer, env);
      expect({
        stdout: ran.stdout,
        exitCode: ran.exitCode,
        stderr: ran.exitCode === 0 ? "" : ran.stderr,
      }).toEqual({
        stdout: expect.stringContaining("quick start via bunx"),
        exitCode: 0,
        stderr: "",
      });
      expect(JSON.stringify(llm?.requests.at(-1)?.body)).toContain("list the files here");
    },
    STEP_TIMEOUT_MS,
  );

  test(
    "bun add @shard-dev/sdk installs the SDK and its CLI; the README's script runs with no shard on PATH",
    async () => {
      const add = await run(["sh", "-c", quickStartLine("bun add @shard-dev/sdk")], consumer, env);
      expect({ exitCode: add.exitCode, stderr: add.exitCode === 0 ? "" : add.stderr }).toEqual({
        exitCode: 0,
        stderr: "",
      });
      // Each package holds exactly what it needs.
      const modules = join(consumer, "node_modules/@shard-dev");
      expect(readdirSync(join(modules, "sdk")).sort()).toEqual([
        "README.md",
        "index.js",
        "package.json",
        "types",
      ]);
      expect(readdirSync(join(modules, "cli")).sort()).toEqual(["README.md", "package.json", "src", "web"]);
      expect(existsSync(join(modules, "cli/web/dist/index.html"))).toBe(true);
      expect(Bun.which("shard", { PATH: env.PATH ?? "" })).toBeNull();

      const script = quickStart().find((b) => b.lang === "ts");
      if (script === undefined) throw new Error("README quick start has no TypeScript block");
      const name = /run with: bun (\S+)/.exec(script.code)?.[1] ?? "agent.ts";
      writeFileSync(join(consumer, name), script.code);
      llm?.enqueue({ steps: [{ text: "quick start via the SDK" }] });
      const ran = await run(["bun", name], consumer, env);
      expect({ stdout: ran.stdout, exitCode: ran.exitCode, stderr: ran.stderr }).toEqual({
        stdout: "quick start via the SDK\n",
        exitCode: 0,
        stderr: "",
      });
    },
    STEP_TIMEOUT_MS,
  );
});
