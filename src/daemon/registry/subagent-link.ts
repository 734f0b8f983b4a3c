/**
 * The subagent link of a runtime on an ssh placement (docs/placements.md, subagents): a unix
 * socket on the daemon's side scoped to the agent (src/daemon/agent-scope.ts: its own
 * `subagent.*` commands only), forwarded by ssh's stream-local forwarding (`-R`) to a socket in
 * a fresh 0700 directory on the far side (`mktemp -d`, as the ssh user), which the remote
 * command removes when the runtime exits. One link per generation.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { sshArgv } from "../../placements/placement-argv.ts";
import type { SshPlacement } from "../../placements/placement-config.ts";
import { describeError } from "../../support/describe-error.ts";

/** The preflight that makes the remote directory takes at most this long. */
const PREFLIGHT_TIMEOUT_MS = 30_000;
/** Unix socket paths are ~104 bytes at most on the platforms ssh runs on. */
const MAX_SOCKET_PATH = 100;
/** What `mktemp -d` may answer: an absolute path without spaces, quotes or `:` (ssh's -R separator). */
const REMOTE_DIR = /^\/[A-Za-z0-9._/-]+$/;

export interface SubagentLink {
  /** The daemon-side socket ssh forwards to. */
  localSocket: string;
  /** The private directory on the far side, and the socket in it the runtime connects to. */
  remoteDir: string;
  remoteSocket: string;
  close(): void;
}

export interface LinkContext {
  home: string;
  env: Record<string, string | undefined>;
  /** Listens on `path` with connections scoped to `agentId`. */
  listen(path: string, agentId: string): { stop(closeActiveConnections?: boolean): void };
  log(line: string): void;
}

/** The link, or undefined (logged) when it cannot be made: the runtime then runs without `subagent`. */
export async function openSubagentLink(
  agentId: string,
  placement: SshPlacement,
  context: LinkContext,
): Promise<SubagentLink | undefined> {
  const remoteDir = await makeRemoteDir(placement, context);
  if (remoteDir === undefined) return undefined;
  const remoteSocket = `${remoteDir}/daemon.sock`;
  const dir = join(context.home, "run", "links");
  const localSocket = join(dir, `${crypto.randomUUID().slice(0, 13)}.sock`);
  if (Buffer.byteLength(localSocket) > MAX_SOCKET_PATH || localSocket.includes(":")) {
    context.log(
      `agent ${agentId}: no subagent link: the daemon-side socket path is too long or has ':': ${localSocket}`,
    );
    return undefined;
  }
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    rmSync(localSocket, { force: true });
    const listener = context.listen(localSocket, agentId);
    return {
      localSocket,
      remoteDir,
      remoteSocket,
      close: () => {
        listener.stop(true);
        rmSync(localSocket, { force: true });
      },
    };
  } catch (err) {
    context.log(`agent ${agentId}: no subagent link: cannot listen on ${localSocket}: ${describeError(err)}`);
    return undefined;
  }
}

async function makeRemoteDir(placement: SshPlacement, context: LinkContext): Promise<string | undefined> {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a parameter expansion of the remote shell
  const argv = sshArgv(placement, 'umask 077 && mktemp -d "${TMPDIR:-/tmp}/shard-link.XXXXXXXX"');
  const proc = Bun.spawn(argv, {
    cwd: context.home,
    env: context.env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => proc.kill("SIGKILL"), PREFLIGHT_TIMEOUT_MS);
  try {
    const [code, out, err] = await Promise.all([
      proc.exited,
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
    ]);
    const dir = out.trim();
    if (code === 0 && REMOTE_DIR.test(dir) && Buffer.byteLength(dir) + 12 <= MAX_SOCKET_PATH) return dir;
    context.log(
      `ssh placement ${placement.host}: no subagent link: mktemp -d there answered ${JSON.stringify(dir.slice(0, 200))} (exit ${code}): ${err.trim().slice(0, 500)}`,
    );
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
