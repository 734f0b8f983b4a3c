/**
 * How a confined command reaches the filtering proxy (docs/sandbox.md#network). Its network
 * namespace has only loopback, so a `socat` started inside the sandbox before the command listens
 * on 127.0.0.1:PROXY_PORT_INSIDE there and forwards each connection to the proxy's unix socket,
 * bind-mounted at PROXY_SOCKET_INSIDE. The command finds it through the usual proxy variables.
 */
import { PROXY_SOCKET_INSIDE } from "./bwrap-argv.ts";

/** The port the bridge listens on inside each sandbox (its own network namespace: no clash). */
export const PROXY_PORT_INSIDE = 3128;

/** Proxy variables a command may inherit: replaced by the bridge's, or dropped (a host proxy is unreachable and its URL may hold a password). */
export const PROXY_ENV_NAMES = [
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "ALL_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "all_proxy",
  "no_proxy",
] as const;

/** `socat` on PATH, or the one `SHARD_SOCAT` names (`none` acts as missing, for tests and users). */
export function findSocat(env: Record<string, string | undefined>): string | undefined {
  const named = env.SHARD_SOCAT;
  if (named === "none") return undefined;
  if (named !== undefined && named !== "") return named;
  return Bun.which("socat", { PATH: env.PATH ?? "/usr/bin:/bin" }) ?? undefined;
}

export function proxyEnv(): Record<string, string> {
  const url = `http://127.0.0.1:${PROXY_PORT_INSIDE}`;
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    // Empty: even localhost goes through the proxy (nothing else listens in the sandbox).
    NO_PROXY: "",
    no_proxy: "",
  };
}

/**
 * Starts the bridge, waits until its port is in LISTEN state (polling /proc/net/tcp, at most
 * about 5 s), then becomes the command. The bridge dies with the sandbox's pid namespace.
 */
const BRIDGE_SCRIPT = `socat=$1; port=$2; shift 2
"$socat" "TCP-LISTEN:$port,bind=127.0.0.1,reuseaddr,fork" "UNIX-CONNECT:${PROXY_SOCKET_INSIDE}" </dev/null >/dev/null 2>&1 &
bridge=$!
listening=":$(printf '%04X' "$port") 00000000:0000 0A"
tries=0
until grep -q "$listening" /proc/net/tcp; do
  tries=$((tries + 1))
  if [ "$tries" -gt 500 ] || ! kill -0 "$bridge" 2>/dev/null; then
    echo "[sandbox] the network bridge (socat) did not start: this command has no network" >&2
    break
  fi
  sleep 0.01
done
exec "$@"`;

export function bridgedCommand(socat: string, command: readonly string[]): string[] {
  return [
    "/bin/sh",
    "-c",
    BRIDGE_SCRIPT,
    "shard-network-bridge",
    socat,
    String(PROXY_PORT_INSIDE),
    ...command,
  ];
}

/** The command as it is, after a line on stderr saying why it has no network. */
export function withNetworkNotice(notice: string, command: readonly string[]): string[] {
  return [
    "/bin/sh",
    "-c",
    'echo "$1" >&2; shift; exec "$@"',
    "shard-network-notice",
    `[sandbox] ${notice}`,
    ...command,
  ];
}
