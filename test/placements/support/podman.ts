/**
 * A real rootful podman for the `container` placement tests (docs/placements.md, tests). No
 * registry is reachable, so the image is `podman import` of a tiny root whose bin/lib/sbin are
 * links into /usr; each run bind-mounts the host's /usr read-only (the shell, bun) and this
 * checkout read-only, and runs the sources under bun, as remote-shard.ts does for ssh (no
 * compiled binary needed). The engine gets the test's own containers.conf through
 * CONTAINERS_CONF: runc, host network (the mock LLM on 127.0.0.1 is reachable inside) and fixed
 * low ulimits (a sandbox without CAP_SYS_RESOURCE cannot raise them).
 */
import { afterAll, beforeAll } from "bun:test";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { shellWord } from "../../../src/placements/shell-word.ts";
import { mockHome, SHARD_MAIN, tempDir } from "../../agent/support/agent-process.ts";
import { CHILD_ENV } from "../../support/child-env.ts";

/** Whether this machine can run the tests (CI installs podman and runc: .ci/run). */
export const hasPodman = Bun.which("podman") !== null && Bun.which("runc") !== null;

export const TEST_IMAGE = "localhost/shard-test-hostusr";

/** The checkout: its src/, node_modules and package.json are mounted read-only. */
const CHECKOUT = dirname(dirname(dirname(SHARD_MAIN)));

export interface Podman {
  /** The daemon's extra environment: the engine client reads the test's containers.conf. */
  env: Record<string, string>;
  /** Runs `podman <args>` with that environment; throws with podman's stderr on failure. */
  run(args: string[]): Promise<string>;
}

/** Registers the file's engine setup (call once, at the top level); the getter throws without it. */
export function usePodman(): () => Podman {
  let podman: Podman | undefined;
  beforeAll(async () => {
    if (hasPodman) podman = await preparePodman();
  }, 120_000);
  afterAll(async () => {
    if (podman) await settle(podman);
  }, 60_000);
  return () => {
    if (!podman) throw new Error("podman is not set up (apt-get install podman runc; CI installs them)");
    return podman;
  };
}

/**
 * The engine removes a `--rm` container after its runtime exits, reading this file's
 * containers.conf, which goes with the run's temp dirs: wait for the engine clients the daemons
 * started (session transfers on exit too) and their containers to be gone, then remove any left.
 */
async function settle(podman: Podman): Promise<void> {
  const deadline = Date.now() + 40_000;
  const containers = async () =>
    (await podman.run(["ps", "-a", "-q", "--filter", `ancestor=${TEST_IMAGE}`]))
      .split("\n")
      .filter((id) => id !== "");
  while (Date.now() < deadline && (engineClients().length > 0 || (await containers()).length > 0))
    await Bun.sleep(200);
  const left = await containers();
  if (left.length > 0) await podman.run(["rm", "-f", "-t", "0", "--", ...left]);
}

/** The `podman` processes this test process started (the in-process daemons' engine clients). */
function engineClients(): number[] {
  const out = Bun.spawnSync(["ps", "-o", "pid=,comm=", "--ppid", String(process.pid)]).stdout.toString();
  return out
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, comm]) => Number(pid) > 0 && comm === "podman")
    .map(([pid]) => Number(pid));
}

async function preparePodman(): Promise<Podman> {
  const dir = tempDir("podman");
  const conf = join(dir, "containers.conf");
  writeFileSync(
    conf,
    [
      "[containers]",
      'default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]',
      'netns = "host"',
      "[engine]",
      'runtime = "runc"',
      "",
    ].join("\n"),
  );
  const env = { CONTAINERS_CONF: conf };
  const run = async (args: string[]): Promise<string> => {
    const proc = Bun.spawn(["podman", ...args], {
      env: { ...CHILD_ENV, ...env },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const [code, out, err] = await Promise.all([
      proc.exited,
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
    ]);
    if (code !== 0) throw new Error(`podman ${args.join(" ")} failed (${code}): ${err}`);
    return out;
  };
  const exists = Bun.spawnSync(["podman", "image", "exists", TEST_IMAGE], { env: { ...CHILD_ENV, ...env } });
  if (exists.exitCode !== 0) await run(["import", rootfsTar(dir), TEST_IMAGE]);
  return { env, run };
}

/** The image's whole content: links into /usr and the directories a container needs. */
function rootfsTar(dir: string): string {
  const root = join(dir, "rootfs");
  for (const sub of ["dev", "etc", "proc", "sys", "run", "usr", "tmp"])
    mkdirSync(join(root, sub), { recursive: true });
  chmodSync(join(root, "tmp"), 0o1777);
  for (const link of ["bin", "lib", "lib64", "sbin"]) symlinkSync(`usr/${link}`, join(root, link));
  const tar = join(dir, "rootfs.tar");
  const made = Bun.spawnSync(["tar", "-C", root, "-cf", tar, "."]);
  if (made.exitCode !== 0) throw new Error(`tar failed: ${made.stderr.toString()}`);
  return tar;
}

export interface ContainerShard {
  /** The placements.json entry. */
  placement: Record<string, unknown>;
  /** The container's SHARD_HOME (a bind mount, so sessions outlive a generation). */
  home: string;
  /** The agent's cwd (the project, mounted at the same path). */
  cwd: string;
}

/**
 * A `container` placement on the test image: the runtime is this checkout under the host's bun
 * (both mounted read-only), with its own home (models.json pointing at the mock LLM) and the
 * project mounted read-write at the same paths inside.
 */
export function containerShard(llmUrl: string): ContainerShard {
  if (!process.execPath.startsWith("/usr/"))
    throw new Error(`bun is at ${process.execPath}; the test image has only the host's /usr`);
  const home = mockHome(llmUrl);
  const cwd = tempDir("container-cwd");
  const bin = tempDir("container-bin");
  writeFileSync(
    join(bin, "shard"),
    ["#!/bin/sh", `exec ${shellWord(process.execPath)} ${shellWord(SHARD_MAIN)} "$@"`, ""].join("\n"),
  );
  chmodSync(join(bin, "shard"), 0o755);
  return {
    home,
    cwd,
    placement: {
      kind: "container",
      engine: "podman",
      image: TEST_IMAGE,
      shard: join(bin, "shard"),
      mounts: [
        { source: "/usr", target: "/usr", readonly: true },
        { source: CHECKOUT, target: CHECKOUT, readonly: true },
        { source: bin, target: bin, readonly: true },
        { source: home, target: home },
        { source: cwd, target: cwd },
      ],
      env: {
        PATH: "/usr/local/bin:/usr/bin:/bin",
        HOME: home,
        SHARD_HOME: home,
        SHARD_SANDBOX_POLICY: "ask",
        SHARD_RETRY_BASE_MS: "5",
      },
    },
  };
}
