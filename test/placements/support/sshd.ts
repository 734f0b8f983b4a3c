/**
 * A private OpenSSH server for the placement tests: Debian's sshd on a loopback port, run as the
 * current user with a generated host key and client key in a private directory (docs/placements.md
 * tests). The client side is an ssh_config file the placement names with `ssh_config`, holding the
 * key, the pinned host key and nothing else: the test never touches ~/.ssh.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isRecord } from "../../../src/support/is-record.ts";
import { tempDir } from "../../agent/support/agent-process.ts";

export const SSHD = "/usr/sbin/sshd";

/** Whether this machine can run the tests (CI installs openssh-server: .ci/run). */
export const hasSshd = existsSync(SSHD) && Bun.which("ssh") !== null && Bun.which("ssh-keygen") !== null;

export interface Sshd {
  port: number;
  user: string;
  /** The ssh_config that reaches this server (IdentityFile, pinned host key). */
  config: string;
  /**
   * The sshd processes serving connections now (the listener's descendants that are sshd, not
   * the remote commands): killing them drops the links as a network failure would.
   */
  connections(): number[];
  /**
   * Drops every link as a network failure would: SIGKILLs the connection processes and returns
   * how many were killed. One that ended meanwhile is skipped (killing a connection's monitor
   * makes its child exit by itself, and a short transfer may finish between the listing and
   * the kill), so the race cannot fail a test.
   */
  dropConnections(): number;
  stop(): Promise<void>;
}

export async function startSshd(): Promise<Sshd> {
  const dir = tempDir("sshd");
  chmodSync(dir, 0o700);
  for (const key of ["host_key", "client_key"])
    await run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", join(dir, key)]);
  writeFileSync(join(dir, "authorized_keys"), readFileSync(join(dir, "client_key.pub")));
  const port = await freePort();
  const user = Bun.spawnSync(["id", "-un"]).stdout.toString().trim();
  const hostKey = readFileSync(join(dir, "host_key.pub"), "utf8").trim().split(" ").slice(0, 2).join(" ");
  writeFileSync(join(dir, "known_hosts"), `[127.0.0.1]:${port} ${hostKey}\n`);
  writeFileSync(
    join(dir, "sshd_config"),
    [
      `Port ${port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${join(dir, "host_key")}`,
      `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
      `PidFile ${join(dir, "sshd.pid")}`,
      "StrictModes no",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "UsePAM no",
      "PermitRootLogin prohibit-password",
      "",
    ].join("\n"),
  );
  const config = join(dir, "ssh_config");
  writeFileSync(
    config,
    [
      "Host *",
      `  IdentityFile ${join(dir, "client_key")}`,
      "  IdentitiesOnly yes",
      `  UserKnownHostsFile ${join(dir, "known_hosts")}`,
      "  StrictHostKeyChecking yes",
      "  LogLevel ERROR",
      "",
    ].join("\n"),
  );
  // Root's sshd wants its privilege-separation directory.
  if (process.getuid?.() === 0) mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });
  const proc = Bun.spawn([SSHD, "-f", join(dir, "sshd_config"), "-D", "-e"], {
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
  });
  let log = "";
  const listening = (async () => {
    for await (const chunk of proc.stderr) {
      log += new TextDecoder().decode(chunk);
      if (log.includes("Server listening")) return true;
    }
    return false;
  })();
  const ok = await Promise.race([listening, proc.exited.then(() => false)]);
  if (!ok) throw new Error(`sshd did not start: ${log}`);
  // Keep draining its log so it never blocks on a full pipe.
  void listening.then(async () => {
    for await (const _ of proc.stderr) {
      // discarded
    }
  });
  return {
    port,
    user,
    config,
    connections: () => childrenOf(proc.pid),
    dropConnections: () => childrenOf(proc.pid).filter(killIfAlive).length,
    stop: async () => {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

function killIfAlive(pid: number): boolean {
  try {
    process.kill(pid, "SIGKILL");
    return true;
  } catch (err) {
    if (isRecord(err) && err.code === "ESRCH") return false;
    throw err;
  }
}

function childrenOf(pid: number): number[] {
  const out = Bun.spawnSync(["ps", "-o", "pid=,comm=", "--ppid", String(pid)]).stdout.toString();
  const sshds = out
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([child, comm]) => Number(child) > 0 && comm === "sshd")
    .map(([child]) => Number(child));
  return sshds.flatMap((child) => [child, ...childrenOf(child)]);
}

async function run(argv: string[]): Promise<void> {
  const proc = Bun.spawn(argv, { stdin: "ignore", stdout: "ignore", stderr: "pipe" });
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  if (code !== 0) throw new Error(`${argv[0]} failed (${code}): ${err}`);
}

async function freePort(): Promise<number> {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}
