/**
 * Issue 11's `bunx shard`: from a checkout after `bun link`, and from the packed tarball
 * installed in an empty folder, `bunx shard daemon` starts the daemon, which prints its URL and
 * enrollment link and serves the web client. `bun link` runs with a temporary BUN_INSTALL so
 * the machine's global bin is untouched; `bun pm pack` runs the prepack build of web/dist.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { tempDir } from "../agent/support/agent-process.ts";
import { DaemonProcess } from "../daemon/support/daemon-harness.ts";

const REPO = resolve(import.meta.dir, "..", "..");
const SLOW_MS = 120_000;
const daemons: DaemonProcess[] = [];
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.stop()));
});

async function run(command: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  const proc = Bun.spawn(command, {
    cwd,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, ...env },
  });
  const [code, stdout, stderr] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  if (code !== 0) throw new Error(`${command.join(" ")} exited ${code}:\n${stdout}\n${stderr}`);
  return stdout;
}

/** Starts `bunx shard daemon` in `cwd` and checks what a user sees. */
async function expectDaemonStarts(cwd: string, env: Record<string, string>): Promise<void> {
  const home = tempDir("dist-home");
  const daemon = new DaemonProcess(home, ["--port", "0"], ["daemon"], {
    env,
    // --no-install: never fetch the npm package named shard (someone else's).
    executable: ["bunx", "--no-install", "shard"],
    cwd,
  });
  daemons.push(daemon);
  const url = await daemon.url();
  expect(await daemon.stdoutLine(/#enroll=/)).toStartWith(`${url}/#enroll=`);
  const page = await fetch(`${url}/`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("<title>Shard</title>");
}

describe("bunx shard", () => {
  test(
    "from a checkout linked with bun link",
    async () => {
      const bunInstall = tempDir("bun-install");
      // As the README says: a linked checkout serves web/dist, which `bun run shard` (or this) builds.
      await run([process.execPath, "scripts/ensure-web.ts"], REPO);
      await run([process.execPath, "link"], REPO, { BUN_INSTALL: bunInstall });
      const env = { PATH: `${bunInstall}/bin:${process.env.PATH ?? ""}`, BUN_INSTALL: bunInstall };
      const empty = tempDir("linked-user");
      expect((await run(["bunx", "--no-install", "shard", "--version"], empty, env)).trim()).toMatch(
        /^\d+\.\d+\.\d+$/,
      );
      await expectDaemonStarts(empty, env);
    },
    SLOW_MS,
  );

  test(
    "from the packed tarball installed in an empty folder",
    async () => {
      const packDir = tempDir("pack");
      await run([process.execPath, "pm", "pack", "--destination", packDir], REPO);
      const tarball = (await Array.fromAsync(new Bun.Glob("*.tgz").scan(packDir)))[0];
      expect(tarball).toBeDefined();
      const project = tempDir("pack-user");
      await Bun.write(`${project}/package.json`, JSON.stringify({ name: "user-project", private: true }));
      await run([process.execPath, "add", `${packDir}/${tarball}`], project);
      await expectDaemonStarts(project, {});
    },
    SLOW_MS,
  );
});
