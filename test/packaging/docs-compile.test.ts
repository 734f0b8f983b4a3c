/**
 * The docs compile: every block fenced `ts` in README.md, sdk/README.md and docs/*.md is
 * type-checked, as a module of its own, against the built SDK installed in an empty project,
 * under a strict consumer config (with noUncheckedIndexedAccess) and Bun's types. Blocks that
 * continue an earlier one use its names (`agent`, `daemon`, `parentId`): those are declared
 * once, typed as the SDK's. Models a block names must be built-in ones. (The protocol's shape
 * notation in docs/protocol-additions.md is fenced `text`: it is not TypeScript.) A block fenced
 * `ts runnable` also runs, with Bun, against the local mock model server, with `shard` on PATH.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { builtinModels } from "../../src/providers/builtin-models.ts";
import { tempDir } from "../agent/support/agent-process.ts";
import { startMockLlmServer } from "../support/mock-llm/server.ts";

// Builds the SDK's declarations and runs tsc over the blocks.
setDefaultTimeout(90_000);

const ROOT = resolve(import.meta.dir, "../..");

interface Block {
  /** `sdk/README.md:23`: the file and the line of the opening fence. */
  where: string;
  code: string;
  /** Fenced `ts runnable`: it runs too. */
  runnable: boolean;
}

function tsBlocks(): Block[] {
  const docs = readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`);
  return ["README.md", "sdk/README.md", ...docs].flatMap((file) => {
    const text = readFileSync(join(ROOT, file), "utf8");
    return [...text.matchAll(/^```(?:ts|typescript)( runnable)?\n([\s\S]*?)^```$/gm)].map((m) => ({
      where: `${file}:${text.slice(0, m.index).split("\n").length}`,
      code: m[2] ?? "",
      runnable: m[1] !== undefined,
    }));
  });
}

/** An empty project with the built SDK installed, as a reader's would be. */
function sdkProject(): string {
  const project = tempDir("docs-compile");
  const modules = join(project, "node_modules");
  const build = Bun.spawnSync([
    process.execPath,
    join(ROOT, "sdk/scripts/build.ts"),
    "--outdir",
    join(modules, "@shard-dev/sdk"),
  ]);
  expect(build.exitCode).toBe(0);
  mkdirSync(join(modules, "@sinclair"), { recursive: true });
  cpSync(join(ROOT, "node_modules/@sinclair/typebox"), join(modules, "@sinclair/typebox"), {
    recursive: true,
  });
  mkdirSync(join(modules, "@types"), { recursive: true });
  symlinkSync(join(ROOT, "node_modules/bun-types"), join(modules, "bun-types"));
  symlinkSync(join(ROOT, "node_modules/@types/node"), join(modules, "@types/node"));
  symlinkSync(join(ROOT, "node_modules/undici-types"), join(modules, "undici-types"));
  writeFileSync(join(project, "package.json"), '{ "type": "module" }\n');
  return project;
}

test("every TypeScript block of the docs type-checks against the built SDK", () => {
  const blocks = tsBlocks();
  expect(blocks.length).toBeGreaterThan(5);
  const project = sdkProject();
  writeFileSync(
    join(project, "earlier-blocks.d.ts"),
    [
      'import type { Agent, DaemonClient } from "@shard-dev/sdk";',
      "declare global {",
      "  const agent: Agent;",
      "  const daemon: DaemonClient;",
      "  const parentId: string;",
      "}",
      "",
    ].join("\n"),
  );
  const files = blocks.map((block, i) => {
    const name = `block-${i}.ts`;
    writeFileSync(join(project, name), `// ${block.where}\n${block.code}\nexport {};\n`);
    return name;
  });
  writeFileSync(
    join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        noUncheckedIndexedAccess: true,
        noEmit: true,
        lib: ["ES2022", "DOM"],
        types: ["bun-types"],
      },
      files: ["earlier-blocks.d.ts", ...files],
    }),
  );
  const tsc = Bun.spawnSync([join(ROOT, "node_modules/.bin/tsc"), "-p", project], { cwd: project });
  // Name each failing block by its place in the docs.
  const report = (tsc.stdout.toString() + tsc.stderr.toString()).replace(
    /block-(\d+)\.ts\((\d+),(\d+)\)/g,
    (_, i: string, line: string, col: string) => {
      const block = blocks[Number(i)];
      const [file, start] = (block?.where ?? "?:0").split(":");
      return `${file}:${Number(start) + Number(line) - 1}:${col}`;
    },
  );
  expect(report).toBe("");
  expect(tsc.exitCode).toBe(0);
});

test("the models the docs' code names are built-in models", () => {
  const known = new Set(builtinModels({}).map((m) => m.id));
  const named = tsBlocks().flatMap((b) =>
    [...b.code.matchAll(/model: "((?:anthropic|openai)\/[^"]+)"/g)].map((m) => `${b.where} ${m[1]}`),
  );
  expect(named.length).toBeGreaterThan(0);
  expect(named.filter((n) => !known.has(n.split(" ")[1] ?? ""))).toEqual([]);
});

test("the blocks marked runnable run against the local model server", async () => {
  const runnable = tsBlocks().filter((b) => b.runnable);
  expect(runnable.length).toBeGreaterThan(0);
  const project = sdkProject();
  // `shard` on PATH is this checkout's CLI, as `bun add @shard-dev/cli` would provide.
  const bin = join(project, "bin");
  mkdirSync(bin);
  writeFileSync(
    join(bin, "shard"),
    `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, "src/cli/main.ts")}" "$@"\n`,
    {
      mode: 0o755,
    },
  );
  const llm = await startMockLlmServer();
  try {
    for (const [i, block] of runnable.entries()) {
      const file = join(project, `runnable-${i}.ts`);
      writeFileSync(file, block.code);
      const cwd = tempDir("docs-run");
      const home = tempDir("docs-home");
      const ran = Bun.spawn([process.execPath, file], {
        cwd,
        env: {
          PATH: `${bin}:${process.env.PATH ?? ""}`,
          HOME: home,
          SHARD_HOME: home,
          ANTHROPIC_API_KEY: "test-key",
          ANTHROPIC_BASE_URL: llm.url,
          OPENAI_API_KEY: "test-key",
          OPENAI_BASE_URL: `${llm.url}/v1`,
          NODE_PATH: join(project, "node_modules"),
        },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [out, err, code] = await Promise.all([
        new Response(ran.stdout).text(),
        new Response(ran.stderr).text(),
        ran.exited,
      ]);
      expect(`${block.where}: exit ${code}\n${err}`).toBe(`${block.where}: exit 0\n${err}`);
      expect(out.trim()).not.toBe("");
    }
  } finally {
    await llm.close();
  }
});
