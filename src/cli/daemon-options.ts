/**
 * The flags of `shard daemon`, apart so that `main.ts` can tell a plain `shard --web-host …`
 * (the daemon) from an unknown option without loading the daemon.
 */
export const DAEMON_OPTIONS = {
  port: { type: "string" },
  "idle-runtime-timeout": { type: "string" },
  "headless-timeout": { type: "string" },
  "max-subagent-runs": { type: "string" },
  "max-runtimes": { type: "string" },
  "daily-budget-usd": { type: "string" },
  "web-host": { type: "string" },
  "public-host": { type: "string" },
  "allowed-origin": { type: "string", multiple: true },
  "trust-proxy": { type: "string" },
  "allow-insecure-remote": { type: "boolean" },
  "forwarded-proto-header": { type: "string" },
  "forwarded-host-header": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** `--port`, `--web-host`, …: a first argument that makes plain `shard` start the daemon. */
export function isDaemonFlag(arg: string): boolean {
  if (!arg.startsWith("--")) return false;
  const name = arg.slice(2).split("=", 1)[0] ?? "";
  return name !== "help" && Object.hasOwn(DAEMON_OPTIONS, name);
}
