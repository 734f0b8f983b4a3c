/**
 * The subagent link of a runtime on an ssh placement (docs/placements.md, subagents): a unix
 * socket on the daemon's side scoped to the agent (src/daemon/agent-scope.ts: its own
 * `subagent.*` commands only), forwarded by ssh's stream-local forwarding (`-R`) to a socket in
 * a fresh 0700 directory on the far side (as the ssh user; link-dirs.ts makes it, recorded
 * first, and sweeps the ones a runtime killed without its shell left), which the remote command
 * removes when the runtime exits. One link per generation.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describeError } from "../../support/describe-error.ts";
import { type LinkDirs, MAX_SOCKET_PATH, type NamedSshPlacement } from "./link-dirs.ts";

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
  dirs: LinkDirs;
}

/** The link, or undefined (logged) when it cannot be made: the runtime then runs without `subagent`. */
export async function openSubagentLink(
  agentId: string,
  placement: NamedSshPlacement,
  context: LinkContext,
): Promise<SubagentLink | undefined> {
  const remoteDir = await context.dirs.make(agentId, placement);
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
