/**
 * One daemon process: the registry of durable agents, the broker, the unix socket and the
 * HTTP/WebSocket server (docs/architecture.md §1, §4). `startDaemon` resolves once both listen; the
 * returned handle stops it (graceful lets turns finish, `force` kills runtimes at once).
 */

import { rmSync } from "node:fs";
import { join } from "node:path";
import { atomicWriteFileSync } from "../support/atomic-write.ts";
import { describeError } from "../support/describe-error.ts";
import { DEFAULT_MAX_LINE_BYTES } from "../wire/jsonl-decoder.ts";
import { authHandlers } from "./auth/auth-commands.ts";
import type { Authenticator } from "./auth/authenticator.ts";
import { BrowserAuth } from "./auth/browser-auth.ts";
import { type Clock, systemClock } from "./auth/clock.ts";
import { SecurityStore } from "./auth/security-store.ts";
import { Broker } from "./broker/broker.ts";
import { HooksList } from "./broker/hooks-list.ts";
import { providerHandlers } from "./broker/provider-commands.ts";
import { registryHandlers } from "./broker/registry-commands.ts";
import { sessionHandlers } from "./broker/session-commands.ts";
import { baselineRecorder, changesHandlers, changesScratch } from "./changes/changes-commands.ts";
import { DaemonLog } from "./daemon-log.ts";
import { LOOPBACK_HOST, PLAINTEXT_COOKIE_WARNING, type WebConfig } from "./http/web-config.ts";
import { browserOrigin, type WebPolicy, webPolicy } from "./http/web-policy.ts";
import { WsConnections } from "./http/ws-connections.ts";
import { DEFAULT_INBOUND_LIMITS, type InboundLimits } from "./inbound-queue.ts";
import { SubagentsLoader } from "./jobs/subagents-loader.ts";
import { DEFAULT_OUTBOUND_CAP_BYTES } from "./outbound-cap.ts";
import { Registry } from "./registry/registry.ts";
import { defaultShardCommand } from "./registry/shard-command.ts";
import { listenUnixSocket } from "./socket.ts";
import { claimSocketPath, secureHome } from "./socket-file.ts";
import { stdioLinks } from "./stdio-link.ts";
import { CostLedger, dayOf } from "./usage/cost-ledger.ts";
import { compactLedger } from "./usage/ledger-compaction.ts";
import { usageHandlers } from "./usage/usage-commands.ts";
import { UsageRecorder } from "./usage/usage-recorder.ts";
import { workspaceHandlers } from "./workspaces/workspace-commands.ts";

export interface DaemonOptions {
  home: string;
  /** 127.0.0.1 port; 0 picks a free one. */
  port: number;
  env?: Record<string, string | undefined>;
  /** Inactive runtimes are stopped after this long; 0 never. */
  idleRuntimeTimeoutMs?: number;
  headlessTimeoutMs?: number;
  /** Subagent runs starting or active at once (default 4, at most `maxRuntimes - 1`). */
  maxSubagentRuns?: number;
  /** Live runtimes at most (default DEFAULT_MAX_RUNTIMES); subagent children count too. */
  maxRuntimes?: number;
  startTimeoutMs?: number;
  maxMessageBytes?: number;
  outboundCapBytes?: number;
  /** Per connection: queued inbound messages and bytes at which reading pauses. */
  inboundLimits?: InboundLimits;
  /** WebSocket keepalive: seconds of silence before a ping (default 30). */
  wsIdleTimeoutS?: number;
  /** Loopback unless the remote flags chose otherwise (validated by webConfigFromFlags). */
  web?: WebConfig;
  /** Replaces browser authentication for the WebSocket: in-process tests only. */
  authenticator?: Authenticator;
  /** Expiry of codes and tickets; tests move it instead of sleeping. */
  clock?: Clock;
  shardCommand?: string[];
  /** The built web client (default: `SHARD_WEB_DIR`, the binary's embedded copy, or `web/dist`). */
  webDir?: string;
  /** `--daily-budget-usd`: USD all agents may spend per UTC day (docs/usage.md). */
  dailyBudgetUsd?: number;
  /** Called once the daemon has stopped after `daemon.shutdown`. */
  onShutdown?: () => void;
}

export interface RunningDaemon {
  /** The address the server bound. */
  url: string;
  /** The one-time enrollment URL, minted at start when no browser is enrolled yet. */
  enrollmentUrl?: string;
  /** Start-up warnings, one line each (also in daemon.log). */
  warnings: string[];
  port: number;
  socketPath: string;
  stop(force: boolean): Promise<void>;
}

export const DEFAULT_PORT = 7777;
/** Days the cost ledger keeps call by call; older ones are kept as daily totals (docs/usage.md). */
export const LEDGER_DETAIL_DAYS = 7;
export const DEFAULT_IDLE_RUNTIME_TIMEOUT_S = 900;
export const DEFAULT_HEADLESS_TIMEOUT_MS = 300_000;
/** Subagent runs starting or active at once, over all parents (the rest wait queued). */
export const DEFAULT_MAX_SUBAGENT_RUNS = 4;
/**
 * Live runtimes at most: sized for a 2-core, 4 GB machine (docs/daemon.md, "Runtime cap"). A
 * runtime is ~50 MB; 16 of them are ~0.85 GB, about a fifth of the memory, leaving the rest to
 * the tools the agents run, which dwarf the runtimes.
 */
export const DEFAULT_MAX_RUNTIMES = 16;

/** Subagent runs count toward the runtime cap, and a parent needs a runtime of its own. */
export function subagentRunsWithin(maxSubagentRuns: number, maxRuntimes: number): number {
  return Math.max(1, Math.min(maxSubagentRuns, maxRuntimes - 1));
}

export async function startDaemon(
  options: DaemonOptions,
): Promise<{ ok: true; daemon: RunningDaemon } | { ok: false; message: string }> {
  const home = secureHome(options.home);
  if (!home.ok) return home;
  const store = SecurityStore.open(options.home);
  if (!store.ok) return store;
  const socketPath = join(options.home, "daemon.sock");
  const claim = await claimSocketPath(socketPath, options.home);
  if (!claim.ok) return claim;
  const log = new DaemonLog(join(options.home, "logs", "daemon.log"));
  const write = (line: string) => log.write(line);
  const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_LINE_BYTES;
  const outboundCapBytes = options.outboundCapBytes ?? DEFAULT_OUTBOUND_CAP_BYTES;
  const inboundLimits = options.inboundLimits ?? DEFAULT_INBOUND_LIMITS;
  const maxRuntimes = options.maxRuntimes ?? DEFAULT_MAX_RUNTIMES;

  const web = options.web ?? { mode: "loopback" };
  let policy: WebPolicy | undefined;
  const browserAuth = new BrowserAuth({
    store: store.store,
    clock: options.clock ?? systemClock,
    allowedOrigins: () => policy?.allowedOrigins ?? new Set(),
    log: write,
  });
  const connections = new WsConnections();
  let webListening!: (policy: WebPolicy) => void;
  const webReady = new Promise<WebPolicy>((resolve) => {
    webListening = resolve;
  });
  const enrollmentBase = async () => browserOrigin(await webReady);

  let stopping: Promise<void> | undefined;
  const broker = new Broker({
    headlessTimeoutMs: options.headlessTimeoutMs ?? DEFAULT_HEADLESS_TIMEOUT_MS,
    log: write,
    requestShutdown: (force) => {
      void stop(force).then(() => options.onShutdown?.());
    },
  });
  const changesContext = {
    home: options.home,
    env: options.env ?? process.env,
    scratch: changesScratch(options.home),
  };
  const registry = new Registry({
    home: options.home,
    shardCommand: options.shardCommand ?? defaultShardCommand(),
    env: options.env ?? process.env,
    startTimeoutMs: options.startTimeoutMs ?? 30_000,
    idleTimeoutMs: options.idleRuntimeTimeoutMs ?? DEFAULT_IDLE_RUNTIME_TIMEOUT_S * 1000,
    maxRuntimes,
    events: broker,
    log: write,
    recordBaseline: baselineRecorder(changesContext, write),
    // An ssh placement's subagent link: that agent's subagent.* commands only (agent-scope.ts).
    listenSubagentLink: (path, agentId) =>
      listenUnixSocket(broker, {
        path,
        maxMessageBytes,
        outboundCapBytes,
        inboundLimits,
        log: write,
        agentScope: agentId,
      }),
    // A command or container placement's link over the runtime's stdio: the same scope.
    openStdioLink: stdioLinks(broker, write),
  });
  // Each subsystem registers the handlers of the commands it answers (src/types/command-table.ts).
  const subagents = new SubagentsLoader(() => ({
    ctx: broker,
    registry,
    maxConcurrentRuns: subagentRunsWithin(options.maxSubagentRuns ?? DEFAULT_MAX_SUBAGENT_RUNS, maxRuntimes),
    log: write,
  }));
  // The cost ledger: every call of every runtime, the daily cap and the jobs' budgets (docs/usage.md).
  const ledger = new CostLedger(options.home, write);
  compactLedger(ledger, dayOf(Date.now() - LEDGER_DETAIL_DAYS * 86_400_000));
  const usage = new UsageRecorder({
    ctx: broker,
    ledger,
    ...(options.dailyBudgetUsd !== undefined ? { dailyBudgetUsd: options.dailyBudgetUsd } : {}),
    runOf: (agentId) => subagents.service?.runOf(agentId),
    worktreesDir: join(options.home, "worktrees"),
    log: write,
  });
  const handlers = {
    ...registryHandlers(broker),
    ...usageHandlers(broker, ledger, usage),
    ...sessionHandlers(broker, write),
    ...providerHandlers(broker),
    ...workspaceHandlers(broker, options.home, write),
    ...subagents.handlers(),
    ...changesHandlers(broker, changesContext, write),
    ...authHandlers({
      auth: browserAuth,
      enrollmentBase,
      closeConnections: (browserId) => connections.closeAll(browserId),
    }),
  };
  // The ledger's hooks first: a child hears its limits before the jobs send it its task.
  broker.bind(registry, handlers, new HooksList([usage, subagents]));
  registry.load();
  await subagents.recover();

  const socket = listenUnixSocket(broker, {
    path: socketPath,
    maxMessageBytes,
    outboundCapBytes,
    inboundLimits,
    log: write,
  });
  // The HTTP side loads once the unix socket listens: local clients need not wait for Hono.
  const [{ createApp }, { websocketHandler }, { defaultWebAssets, directoryAssets }] = await Promise.all([
    import("./http/app.ts"),
    import("./http/websocket.ts"),
    import("./http/web-assets.ts"),
  ]);
  const app = createApp({
    authenticator: options.authenticator ?? browserAuth,
    browserAuth,
    webAssets: options.webDir !== undefined ? directoryAssets(options.webDir) : defaultWebAssets(),
    policy: () => policy,
    log: write,
  });
  const hostname = web.mode === "loopback" ? LOOPBACK_HOST : web.bindHost;
  let server: ReturnType<typeof Bun.serve>;
  try {
    server = Bun.serve({
      hostname,
      port: options.port,
      fetch: (request, srv) => app.fetch(request, { server: srv }),
      websocket: websocketHandler(broker, {
        maxMessageBytes,
        outboundCapBytes,
        inboundLimits,
        connections,
        log: write,
        ...(options.wsIdleTimeoutS !== undefined ? { idleTimeoutS: options.wsIdleTimeoutS } : {}),
      }),
    });
  } catch (err) {
    socket.stop(true);
    rmSync(socketPath, { force: true });
    return {
      ok: false,
      message: `cannot listen on ${hostname}:${options.port}: ${describeError(err)}; pass --port 0 for a free port`,
    };
  }
  const port = server.port ?? options.port;
  policy = webPolicy(web, port);
  webListening(policy);
  const url = policy.boundUrl;
  const recordPath = join(options.home, "daemon.json");
  atomicWriteFileSync(recordPath, `${JSON.stringify({ pid: process.pid, url, started_at: Date.now() })}\n`);
  write(`daemon started (pid ${process.pid}, ${url}, ${registry.list().length} durable agents)`);
  const warnings: string[] = [];
  if (web.mode !== "loopback" && web.allowInsecureRemote) warnings.push(PLAINTEXT_COOKIE_WARNING);
  for (const warning of warnings) write(warning);
  // The code goes to the caller (the terminal) only; the log says that one was minted.
  const firstUrl = browserAuth.hasBrowsers()
    ? undefined
    : `${browserOrigin(policy)}/#enroll=${browserAuth.mintCode().code}`;

  function stop(force: boolean): Promise<void> {
    stopping ??= (async () => {
      write(`daemon stopping${force ? " (force)" : ""}`);
      await registry.shutdown(force);
      // The last calls' lines wait for the end of their task; they are written before exit.
      ledger.close();
      socket.stop(true);
      rmSync(socketPath, { force: true });
      rmSync(recordPath, { force: true });
      await server.stop(true);
      write("daemon stopped");
    })();
    return stopping;
  }

  return {
    ok: true,
    daemon: {
      url,
      ...(firstUrl !== undefined ? { enrollmentUrl: firstUrl } : {}),
      warnings,
      port,
      socketPath,
      stop,
    },
  };
}
