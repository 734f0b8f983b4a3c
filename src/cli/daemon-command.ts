/** `shard daemon`: the registry, broker and transports in one process (src/daemon). */

import pkg from "../../package.json" with { type: "json" };
import {
  DEFAULT_HEADLESS_TIMEOUT_MS,
  DEFAULT_IDLE_RUNTIME_TIMEOUT_S,
  DEFAULT_MAX_RUNTIMES,
  DEFAULT_MAX_SUBAGENT_RUNS,
  DEFAULT_PORT,
  startDaemon,
  subagentRunsWithin,
} from "../daemon/daemon.ts";
import { type WebConfig, webConfigFromFlags } from "../daemon/http/web-config.ts";
import { shardHome } from "../support/shard-home.ts";
import { startTelemetry, stopTelemetry } from "../telemetry/telemetry.ts";
import { writeEnrollmentQr } from "../terminal/enrollment-qr.ts";
import { DAEMON_OPTIONS } from "./daemon-options.ts";
import { budgetFrom, parseFlags, reportUsageError, UsageError } from "./flags.ts";

export const DAEMON_HELP = `Usage: shard daemon [options]
       shard daemon stop [--force]

Runs the Shard daemon: durable agents, many clients. Local clients use the unix socket
$SHARD_HOME/daemon.sock (JSONL); the HTTP/WebSocket server listens on 127.0.0.1.

Options:
  --port N                         HTTP/WebSocket port on 127.0.0.1 (default ${DEFAULT_PORT}; 0 picks a free one)
  --idle-runtime-timeout SECONDS   stop an inactive agent runtime after this long (default ${DEFAULT_IDLE_RUNTIME_TIMEOUT_S}; 0 never)
  --headless-timeout SECONDS       how long a "queue" agent's request waits for an interactive client
                                   before it is denied (default ${DEFAULT_HEADLESS_TIMEOUT_MS / 1000})
  --max-subagent-runs N            subagent runs that may be starting or active at once, over all
                                   parents (default ${DEFAULT_MAX_SUBAGENT_RUNS}; the rest wait queued; below --max-runtimes)
  --max-runtimes N                 agent runtimes alive at once, subagents included (default ${DEFAULT_MAX_RUNTIMES},
                                   2-1024); past it the oldest idle one is stopped, and with none idle
                                   a start fails saying so
  --daily-budget-usd AMOUNT        US dollars all agents may spend per UTC day; past it each turn
                                   stops at its next provider call with BUDGET_EXCEEDED (docs/usage.md)

Remote mode (off by default; see docs/auth.md and docs/WEB-DEPLOYMENT.md):
  --web-host IP                    bind the HTTP server to this address instead of 127.0.0.1
  --public-host HOST:PORT          the exact Host browsers use (required in remote mode)
  --allowed-origin ORIGIN          an origin the web client runs at, e.g. https://shard.example.com (repeatable; required)
  --trust-proxy UPSTREAM           honour X-Forwarded-Proto/-Host from this peer only: loopback, or an exact IP
  --allow-insecure-remote          accept plain http beyond loopback (the session cookie can be intercepted)
  --forwarded-proto-header NAME    the proxy's header for the scheme (default X-Forwarded-Proto)
  --forwarded-host-header NAME     the proxy's header for the host (default X-Forwarded-Host)

With no browser enrolled, the daemon prints a one-time enrollment URL (#enroll=<code>).
\`shard daemon stop\` stops the running daemon (see shard daemon stop --help).
`;

const OPTIONS = DAEMON_OPTIONS;

function nonNegativeInteger(flag: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > max)
    throw new UsageError(`--${flag} must be an integer from 0 to ${max}`);
  return n;
}

export async function daemonCommand(argv: string[]): Promise<number> {
  if (argv[0] === "stop") return (await import("./daemon-stop-command.ts")).daemonStopCommand(argv.slice(1));
  let port: number;
  let idleSeconds: number;
  let headlessSeconds: number;
  let maxSubagentRuns: number;
  let maxRuntimes: number;
  let web: WebConfig;
  let dailyBudgetUsd: number | undefined;
  try {
    const { values } = parseFlags(argv, OPTIONS, false);
    if (values.help) {
      process.stdout.write(DAEMON_HELP);
      return 0;
    }
    port = nonNegativeInteger("port", values.port, DEFAULT_PORT, 65_535);
    idleSeconds = nonNegativeInteger(
      "idle-runtime-timeout",
      values["idle-runtime-timeout"],
      DEFAULT_IDLE_RUNTIME_TIMEOUT_S,
      31_536_000,
    );
    headlessSeconds = nonNegativeInteger(
      "headless-timeout",
      values["headless-timeout"],
      DEFAULT_HEADLESS_TIMEOUT_MS / 1000,
      31_536_000,
    );
    if (headlessSeconds === 0) throw new UsageError("--headless-timeout must be at least 1 second");
    maxRuntimes = nonNegativeInteger("max-runtimes", values["max-runtimes"], DEFAULT_MAX_RUNTIMES, 1024);
    if (maxRuntimes < 2)
      throw new UsageError("--max-runtimes must be at least 2 (a parent and one subagent)");
    maxSubagentRuns = nonNegativeInteger(
      "max-subagent-runs",
      values["max-subagent-runs"],
      subagentRunsWithin(DEFAULT_MAX_SUBAGENT_RUNS, maxRuntimes),
      64,
    );
    if (maxSubagentRuns === 0) throw new UsageError("--max-subagent-runs must be at least 1");
    if (maxSubagentRuns >= maxRuntimes)
      throw new UsageError(
        `--max-subagent-runs (${maxSubagentRuns}) must be below --max-runtimes (${maxRuntimes}): each run's runtime counts toward the cap, and its parent needs one too`,
      );
    const daily = values["daily-budget-usd"];
    if (daily !== undefined) dailyBudgetUsd = budgetFrom(daily, "daily-budget-usd");
    const checked = webConfigFromFlags({
      ...(values["web-host"] !== undefined ? { webHost: values["web-host"] } : {}),
      ...(values["public-host"] !== undefined ? { publicHost: values["public-host"] } : {}),
      allowedOrigins: values["allowed-origin"] ?? [],
      allowInsecureRemote: values["allow-insecure-remote"] === true,
      ...(values["trust-proxy"] !== undefined ? { trustProxy: values["trust-proxy"] } : {}),
      ...(values["forwarded-proto-header"] !== undefined
        ? { forwardedProtoHeader: values["forwarded-proto-header"] }
        : {}),
      ...(values["forwarded-host-header"] !== undefined
        ? { forwardedHostHeader: values["forwarded-host-header"] }
        : {}),
    });
    if (!checked.ok) throw new UsageError(checked.message);
    web = checked.config;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return reportUsageError("daemon", err.message);
  }
  let stopped!: () => void;
  const done = new Promise<void>((resolve) => {
    stopped = resolve;
  });
  // Before any runtime starts, so the live-runtimes gauge counts every one (docs/telemetry.md).
  await startTelemetry(process.env, "daemon", pkg.version, (message) =>
    process.stderr.write(`shard daemon: warning: ${message}\n`),
  );
  const started = await startDaemon({
    home: shardHome(process.env),
    port,
    idleRuntimeTimeoutMs: idleSeconds * 1000,
    headlessTimeoutMs: headlessSeconds * 1000,
    maxSubagentRuns,
    maxRuntimes,
    web,
    ...(dailyBudgetUsd !== undefined ? { dailyBudgetUsd } : {}),
    onShutdown: () => stopped(),
  });
  if (!started.ok) {
    process.stderr.write(`shard daemon: ${started.message}\n`);
    await stopTelemetry();
    return 1;
  }
  const { daemon } = started;
  for (const warning of daemon.warnings) process.stderr.write(`shard daemon: ${warning}\n`);
  // The bound address first (one line), then the enrollment URL: the code lives on this terminal only.
  process.stdout.write(`${daemon.url}\n`);
  if (daemon.enrollmentUrl !== undefined) {
    process.stdout.write(`${daemon.enrollmentUrl}\n`);
    writeEnrollmentQr(daemon.enrollmentUrl, process.stdout);
  }
  const onSignal = () => void daemon.stop(false).then(() => stopped());
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
  await done;
  process.off("SIGTERM", onSignal);
  process.off("SIGINT", onSignal);
  await stopTelemetry();
  return 0;
}
