/**
 * The publishable package: `bun sdk/scripts/build.ts` makes a self-contained bundle plus
 * declarations; installed in an empty project it type-checks with a strict consumer tsconfig
 * (no Bun types) and runs under Node.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../agent/support/agent-process.ts";

// Real agent processes and daemons on a machine shared with other work.
setDefaultTimeout(60_000);

const ROOT = resolve(import.meta.dir, "../..");

test("the built package installs into an empty project, type-checks and runs under Node", async () => {
  const project = tempDir("sdk-consumer");
  const installed = join(project, "node_modules/@shard-dev/sdk");
  const build = Bun.spawnSync([process.execPath, join(ROOT, "sdk/scripts/build.ts"), "--outdir", installed]);
  expect(build.exitCode).toBe(0);
  const pkg = await Bun.file(join(installed, "package.json")).json();
  expect(pkg.name).toBe("@shard-dev/sdk");
  // Its one dependency (types only): what a package manager would install.
  mkdirSync(join(project, "node_modules/@sinclair"), { recursive: true });
  cpSync(join(ROOT, "node_modules/@sinclair/typebox"), join(project, "node_modules/@sinclair/typebox"), {
    recursive: true,
  });
  writeFileSync(join(project, "package.json"), '{ "type": "module" }\n');
  writeFileSync(
    join(project, "use.ts"),
    [
      'import { type AgentSnapshot, reconnectDelayMs, ShardError, type TurnResult } from "@shard-dev/sdk";',
      "const status: AgentSnapshot['status'] = 'idle';",
      "const result: TurnResult | undefined = undefined;",
      "const error = new ShardError('NOT_FOUND', 'no such agent');",
      "console.log(JSON.stringify({ delay: reconnectDelayMs(3), code: error.code, status, result: result ?? null }));",
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        noEmit: true,
        lib: ["ES2022", "DOM"],
        types: [],
      },
      files: ["use.ts"],
    }),
  );
  const tsc = Bun.spawnSync([join(ROOT, "node_modules/.bin/tsc"), "-p", project], { cwd: project });
  expect({ out: tsc.stdout.toString() + tsc.stderr.toString(), signal: tsc.signalCode }).toEqual({
    out: "",
    signal: undefined,
  });
  expect(tsc.exitCode).toBe(0);
  writeFileSync(
    join(project, "use.mjs"),
    'import { reconnectDelayMs, ShardError } from "@shard-dev/sdk";\nconsole.log(reconnectDelayMs(3), new ShardError("NOT_FOUND", "x").code);\n',
  );
  const node = Bun.spawnSync(["node", "use.mjs"], { cwd: project });
  expect(node.stdout.toString().trim()).toBe("8000 NOT_FOUND");
});

test("installed without its CLI and with no `shard` on PATH, spawnAgent says what to install", async () => {
  const project = tempDir("sdk-no-cli");
  const installed = join(project, "node_modules/@shard-dev/sdk");
  const build = Bun.spawnSync([process.execPath, join(ROOT, "sdk/scripts/build.ts"), "--outdir", installed]);
  expect(build.exitCode).toBe(0);
  writeFileSync(
    join(project, "spawn.ts"),
    [
      'import { ShardError, spawnAgent } from "@shard-dev/sdk";',
      "for (const command of [undefined, ['no-such-shard-binary']]) {",
      "  try {",
      "    await spawnAgent(command ? { command } : {});",
      "  } catch (err) {",
      "    console.log(err instanceof ShardError, err.code, err.message);",
      "  }",
      "}",
      "",
    ].join("\n"),
  );
  const run = Bun.spawnSync([process.execPath, "spawn.ts"], { cwd: project, env: { PATH: "/usr/bin:/bin" } });
  const lines = run.stdout.toString().trim().split("\n");
  expect({ lines, stderr: run.stderr.toString(), exitCode: run.exitCode }).toEqual({
    lines: [
      expect.stringMatching(
        /^true RUNTIME_START_FAILED the Shard runtime was not found: install it with `bun add @shard-dev\/cli`/,
      ),
      expect.stringMatching(
        /^true RUNTIME_START_FAILED could not start the agent \(no-such-shard-binary\): /,
      ),
    ],
    stderr: "",
    exitCode: 0,
  });
});
