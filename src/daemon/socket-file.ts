/**
 * Safety of `$SHARD_HOME/daemon.sock` (docs/protocol.md §3.3: its permissions are the access
 * control). The home is a 0700 directory of ours; at the socket path we replace only a stale socket
 * of our own. A symlink, a regular file or another user's file is refused and left untouched, and
 * a socket with a live daemon behind it means another daemon owns this home.
 */
import { chmodSync, lstatSync, readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";

export type SocketClaim = { ok: true } | { ok: false; message: string };

/** The 0700 home the socket lives in; refused when it is not a directory of ours. */
export function secureHome(home: string): SocketClaim {
  const st = lstatSync(home);
  if (!st.isDirectory()) return { ok: false, message: `SHARD_HOME ${home} is not a directory` };
  if (st.uid !== process.getuid?.()) {
    return {
      ok: false,
      message: `SHARD_HOME ${home} belongs to another user (uid ${st.uid}); use a home of your own`,
    };
  }
  if ((st.mode & 0o077) !== 0) chmodSync(home, 0o700);
  return { ok: true };
}

export async function claimSocketPath(path: string, home: string): Promise<SocketClaim> {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(path);
  } catch {
    return { ok: true };
  }
  const refuse = (what: string): SocketClaim => ({
    ok: false,
    message: `${path} ${what}; the daemon left it untouched. Remove it yourself if it is safe to, or use another SHARD_HOME`,
  });
  if (st.isSymbolicLink()) return refuse("is a symbolic link");
  if (!st.isSocket()) return refuse(st.isFile() ? "is a regular file, not a socket" : "is not a socket");
  if (st.uid !== process.getuid?.()) return refuse(`belongs to another user (uid ${st.uid})`);
  if (await someoneListens(path)) {
    return {
      ok: false,
      message: `another shard daemon is already running for SHARD_HOME=${home} (${describeRunning(home)}); stop it with daemon.shutdown, or use another SHARD_HOME`,
    };
  }
  // A stale socket of a daemon that died: ours, nobody behind it.
  unlinkSync(path);
  return { ok: true };
}

async function someoneListens(path: string): Promise<boolean> {
  try {
    const socket = await Bun.connect({ unix: path, socket: { data() {} } });
    socket.end();
    return true;
  } catch {
    return false;
  }
}

/** What the running daemon recorded about itself (daemon.json), for the refusal message. */
function describeRunning(home: string): string {
  try {
    const info: unknown = JSON.parse(readFileSync(join(home, "daemon.json"), "utf8"));
    if (info && typeof info === "object" && "pid" in info) {
      const url = "url" in info && typeof info.url === "string" ? `, ${info.url}` : "";
      return `pid ${String(info.pid)}${url}`;
    }
  } catch {
    // no record: the socket alone says it is there
  }
  return "its socket answers";
}
