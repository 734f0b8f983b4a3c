/**
 * A real local npm registry for the publish test: Verdaccio, installed with npm into a cache
 * folder outside the repository (`$XDG_CACHE_HOME/shard-verdaccio-<version>`, default
 * `~/.cache/…`) and started on a free 127.0.0.1 port with its own storage. Packages under
 * `@shard-dev/` live only here; every other package is proxied from the public registry.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const VERDACCIO_VERSION = "6.8.0";
/** Later node-fetch releases need Node 22; Verdaccio 6.8.0 runs on Node 20 with this one. */
const NODE_FETCH_VERSION = "2.7.0";
const UPLINK = "https://registry.npmjs.org/";
const READY_TIMEOUT_MS = 60_000;

export type VerdaccioInstall = { ok: true; bin: string } | { ok: false; reason: string };

export function verdaccioDir(): string {
  return join(
    process.env.XDG_CACHE_HOME || join(homedir(), ".cache"),
    `shard-verdaccio-${VERDACCIO_VERSION}`,
  );
}

function installedVersion(dir: string): string | undefined {
  const manifest = join(dir, "node_modules/verdaccio/package.json");
  if (!existsSync(manifest)) return undefined;
  const parsed: unknown = JSON.parse(readFileSync(manifest, "utf8"));
  if (typeof parsed !== "object" || parsed === null || !("version" in parsed)) return undefined;
  return typeof parsed.version === "string" ? parsed.version : undefined;
}

/** The installed Verdaccio's entry script; installs it first if missing. Never throws. */
export async function ensureVerdaccio(): Promise<VerdaccioInstall> {
  const dir = verdaccioDir();
  const bin = join(dir, "node_modules/verdaccio/bin/verdaccio");
  if (installedVersion(dir) === VERDACCIO_VERSION && existsSync(bin)) return { ok: true, bin };
  if (Bun.which("npm") === null || Bun.which("node") === null)
    return { ok: false, reason: "npm and node are needed to install Verdaccio" };
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({
      private: true,
      dependencies: { verdaccio: VERDACCIO_VERSION },
      overrides: { "node-fetch": NODE_FETCH_VERSION },
    })}\n`,
  );
  const npm = Bun.spawn(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: dir,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, stderr] = await Promise.all([npm.exited, new Response(npm.stderr).text()]);
  if (code !== 0 || !existsSync(bin))
    return {
      ok: false,
      reason: `npm install verdaccio@${VERDACCIO_VERSION} failed (${code}): ${stderr.slice(-600)}`,
    };
  return { ok: true, bin };
}

export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** A publish token of the one user created on it. */
  token: string;
  stop(): Promise<void>;
}

function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

/** Starts Verdaccio with storage under `dir`; resolves once it listens and a user exists. */
export async function startVerdaccio(bin: string, dir: string): Promise<LocalRegistry> {
  mkdirSync(dir, { recursive: true });
  const config = join(dir, "config.yaml");
  writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(join(dir, "storage"))}`,
      "auth:",
      "  htpasswd:",
      `    file: ${JSON.stringify(join(dir, "htpasswd"))}`,
      "uplinks:",
      "  npmjs:",
      `    url: ${UPLINK}`,
      "packages:",
      "  '@shard-dev/*':",
      "    access: $all",
      "    publish: $authenticated",
      "  '**':",
      "    access: $all",
      "    proxy: npmjs",
      // "http address" is logged at warn level: it is the readiness line.
      "log: { type: stdout, format: pretty, level: warn }",
      "",
    ].join("\n"),
  );
  const url = `http://127.0.0.1:${freePort()}/`;
  const proc = Bun.spawn(["node", bin, "--config", config, "--listen", url.slice("http://".length, -1)], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const stderr = new Response(proc.stderr).text();
  let output = "";
  let announce!: (listening: boolean) => void;
  const ready = new Promise<boolean>((resolve) => {
    announce = resolve;
  });
  // One reader for the child's whole life, so it never blocks on a full pipe.
  void (async () => {
    const utf8 = new TextDecoder();
    for await (const chunk of proc.stdout) {
      output += utf8.decode(chunk, { stream: true });
      if (output.includes("http address")) announce(true);
      if (output.length > 64 * 1024) output = output.slice(-16 * 1024);
    }
    announce(false);
  })();
  const timer = setTimeout(() => announce(false), READY_TIMEOUT_MS);
  const listening = await ready;
  clearTimeout(timer);
  // SIGKILL: its storage is thrown away, and a graceful stop waits on keep-alive sockets.
  const stop = async () => {
    proc.kill("SIGKILL");
    await proc.exited;
  };
  if (!listening) {
    await stop();
    throw new Error(`verdaccio did not start: ${output}${await stderr}`);
  }
  const user = await fetch(new URL("-/user/org.couchdb.user:shard-ci", url), {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "shard-ci", password: "shard-ci-password" }),
  });
  const body: unknown = await user.json();
  if (
    !user.ok ||
    typeof body !== "object" ||
    body === null ||
    !("token" in body) ||
    typeof body.token !== "string"
  ) {
    await stop();
    throw new Error(`verdaccio refused the user (${user.status}): ${JSON.stringify(body)}`);
  }
  return { url, token: body.token, stop };
}
