/**
 * Installs the peers at pinned versions into a cache folder outside the repository (never at
 * test time, never committed): `$XDG_CACHE_HOME/shard-bench-peers/<name>@<version>` (default
 * `~/.cache/…`). opencode also installs packages of its own on its first run (its plugin SDK,
 * into the config dir): that run happens here, once, so the timed runs stay offline.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const PEERS = {
  pi: { pkg: "@mariozechner/pi-coding-agent", version: "0.73.1", bin: "pi" },
  opencode: { pkg: "opencode-ai", version: "1.18.33", bin: "opencode" },
} as const;

export type PeerName = keyof typeof PEERS;

export function cacheRoot(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "shard-bench-peers");
}

export function peerDir(name: PeerName): string {
  const peer = PEERS[name];
  return join(cacheRoot(), `${name}@${peer.version}`);
}

export function installedVersion(name: PeerName): string | undefined {
  const manifest = join(peerDir(name), "node_modules", PEERS[name].pkg, "package.json");
  if (!existsSync(manifest)) return undefined;
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version?: string }).version;
}

/** The installed peer's executable; installs it first if missing. Throws with npm's error. */
export async function ensurePeer(name: PeerName, log: (line: string) => void): Promise<string> {
  const peer = PEERS[name];
  const dir = peerDir(name);
  const bin = join(dir, "node_modules", ".bin", peer.bin);
  if (installedVersion(name) === peer.version && existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  log(`installing ${peer.pkg}@${peer.version} into ${dir} …`);
  const npm = Bun.spawn(
    [
      "npm",
      "install",
      "--prefix",
      dir,
      "--no-audit",
      "--no-fund",
      "--no-save",
      `${peer.pkg}@${peer.version}`,
    ],
    { stdin: "ignore", stdout: "pipe", stderr: "pipe" },
  );
  const [code, stderr] = await Promise.all([npm.exited, new Response(npm.stderr).text()]);
  if (code !== 0 || !existsSync(bin))
    throw new Error(`npm install ${peer.pkg}@${peer.version} failed (${code}): ${stderr.slice(-600)}`);
  return bin;
}

/** A fresh working folder for the tools under the cache root (small parents, unlike /tmp). */
export function workDir(): string {
  const runs = join(cacheRoot(), "runs");
  mkdirSync(runs, { recursive: true });
  return mkdtempSync(join(runs, "cwd-"));
}

/** opencode's config dir, primed by one untimed run (see opencodePrimed). */
export function opencodeConfigHome(): string {
  return join(peerDir("opencode"), "xdg-config");
}

/** True once opencode's first run installed its own packages into the config dir. */
export function opencodePrimed(): boolean {
  return existsSync(
    join(opencodeConfigHome(), "opencode", "node_modules", "@opencode-ai", "plugin", "package.json"),
  );
}
