/**
 * An in-process daemon on a temporary SHARD_HOME whose models.json points at the mock LLM,
 * spawning real `shard agent` children; and a `shard daemon` child process for the tests that
 * need a whole process (restart, shutdown, a second daemon).
 */
import { afterEach } from "bun:test";
import { join } from "node:path";
import type { Authenticator } from "../../../src/daemon/auth/authenticator.ts";
import { type RunningDaemon, startDaemon } from "../../../src/daemon/daemon.ts";
import type { InboundLimits } from "../../../src/daemon/inbound-queue.ts";
import { mockHome, SHARD_MAIN, tempDir } from "../../agent/support/agent-process.ts";
import { CHILD_ENV } from "../../support/child-env.ts";
import type { MockLlmServer } from "../../support/mock-llm/types.ts";
import { DaemonClient } from "./daemon-client.ts";

export interface HarnessOptions {
  home?: string;
  idleRuntimeTimeoutMs?: number;
  headlessTimeoutMs?: number;
  maxMessageBytes?: number;
  outboundCapBytes?: number;
  authenticator?: Authenticator;
  startTimeoutMs?: number;
  shardCommand?: string[];
  wsIdleTimeoutS?: number;
  maxSubagentRuns?: number;
  maxRuntimes?: number;
  inboundLimits?: InboundLimits;
  dailyBudgetUsd?: number;
  /** More environment for the daemon (and so for a placement's engine client, e.g. CONTAINERS_CONF). */
  env?: Record<string, string>;
}

/** Lets every upgrade through: in-process tests only (the real daemon refuses them all). */
export const testAuthenticator: Authenticator = {
  authenticateUpgrade: async () => ({ ok: true, principal: "test" }),
};

export const runtimeEnv = (home: string) => ({
  ...CHILD_ENV,
  HOME: home,
  SHARD_HOME: home,
  SHARD_RETRY_BASE_MS: "5",
});

export class DaemonHarness {
  readonly clients: DaemonClient[] = [];
  readonly cwd = tempDir("cwd");

  private constructor(
    readonly home: string,
    readonly daemon: RunningDaemon,
  ) {}

  static async start(llmUrl: string, options: HarnessOptions = {}): Promise<DaemonHarness> {
    const home = options.home ?? mockHome(llmUrl);
    const started = await startDaemon({
      home,
      port: 0,
      env: { ...runtimeEnv(home), ...options.env },
      authenticator: options.authenticator ?? testAuthenticator,
      ...(options.idleRuntimeTimeoutMs !== undefined
        ? { idleRuntimeTimeoutMs: options.idleRuntimeTimeoutMs }
        : {}),
      ...(options.headlessTimeoutMs !== undefined ? { headlessTimeoutMs: options.headlessTimeoutMs } : {}),
      ...(options.maxMessageBytes !== undefined ? { maxMessageBytes: options.maxMessageBytes } : {}),
      ...(options.outboundCapBytes !== undefined ? { outboundCapBytes: options.outboundCapBytes } : {}),
      ...(options.startTimeoutMs !== undefined ? { startTimeoutMs: options.startTimeoutMs } : {}),
      ...(options.shardCommand !== undefined ? { shardCommand: options.shardCommand } : {}),
      ...(options.wsIdleTimeoutS !== undefined ? { wsIdleTimeoutS: options.wsIdleTimeoutS } : {}),
      ...(options.maxSubagentRuns !== undefined ? { maxSubagentRuns: options.maxSubagentRuns } : {}),
      ...(options.maxRuntimes !== undefined ? { maxRuntimes: options.maxRuntimes } : {}),
      ...(options.inboundLimits !== undefined ? { inboundLimits: options.inboundLimits } : {}),
      ...(options.dailyBudgetUsd !== undefined ? { dailyBudgetUsd: options.dailyBudgetUsd } : {}),
    });
    if (!started.ok) throw new Error(started.message);
    return new DaemonHarness(home, started.daemon);
  }

  get socketPath(): string {
    return join(this.home, "daemon.sock");
  }

  async unixClient(): Promise<DaemonClient> {
    const c = await DaemonClient.unix(this.socketPath);
    this.clients.push(c);
    return c;
  }

  async wsClient(): Promise<DaemonClient> {
    const c = await DaemonClient.websocket(this.daemon.url);
    this.clients.push(c);
    return c;
  }

  client(transport: "unix" | "websocket"): Promise<DaemonClient> {
    return transport === "unix" ? this.unixClient() : this.wsClient();
  }

  /** Creates an agent on the mock model and returns its id. */
  async createAgent(client: DaemonClient, extra: object = {}): Promise<string> {
    const data = await client.ok({ type: "agent.create", cwd: this.cwd, model: "mock/chat", ...extra });
    return data.agent_id as string;
  }

  async stop(): Promise<void> {
    for (const c of this.clients) c.close();
    await this.daemon.stop(true);
    // Every daemon test checks it: no workspace answer or event ever showed a git dir path.
    const leaks = this.clients.flatMap((c) => c.gitDirLeaks);
    if (leaks.length > 0) throw new Error(`git directory paths reached a client:\n${leaks.join("\n")}`);
    // And every answer matched its command's result schema (src/types/command-table.ts).
    const wrong = this.clients.flatMap((c) => c.resultViolations);
    if (wrong.length > 0) throw new Error(`responses outside their result schemas:\n${wrong.join("\n")}`);
  }
}

export interface DaemonProcessOptions {
  env?: Record<string, string>;
  /** How to run shard: bun on the sources (default), a compiled binary, or `bunx shard`. */
  executable?: string[];
  cwd?: string;
}

/** `shard daemon` as a child process, reading the URL it prints. */
export class DaemonProcess {
  readonly proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  stdout = "";
  stderr = "";
  readonly exited: Promise<number>;
  private readonly urlPromise: Promise<string>;
  private readonly stdoutWaiters: Array<() => void> = [];

  /** `command` is what comes before the daemon's flags: `["daemon"]`, or `[]` for plain `shard`. */
  constructor(
    readonly home: string,
    args: string[] = ["--port", "0"],
    command: string[] = ["daemon"],
    options: DaemonProcessOptions = {},
  ) {
    const executable = options.executable ?? [process.execPath, SHARD_MAIN];
    const proc = Bun.spawn([...executable, ...command, ...args], {
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      env: { ...runtimeEnv(home), ...options.env },
      // Its own process group, so stop() reaches a launcher's children too (bunx → bun).
      detached: true,
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    });
    this.proc = proc;
    let gotUrl!: (url: string) => void;
    this.urlPromise = new Promise((resolve) => {
      gotUrl = resolve;
    });
    void (async () => {
      for await (const chunk of proc.stdout) {
        this.stdout += new TextDecoder().decode(chunk);
        const url = /^(http:\/\/127\.0\.0\.1:\d+)$/m.exec(this.stdout)?.[1];
        if (url) gotUrl(url);
        for (const wake of this.stdoutWaiters.splice(0)) wake();
      }
    })();
    void (async () => {
      for await (const chunk of proc.stderr) this.stderr += new TextDecoder().decode(chunk);
    })();
    this.exited = this.proc.exited;
  }

  url(): Promise<string> {
    return Promise.race([
      this.urlPromise,
      this.exited.then((code) => Promise.reject(new Error(`daemon exited ${code}: ${this.stderr}`))),
    ]);
  }

  /** The first stdout line matching `pattern` (rejects if the daemon exits first). */
  async stdoutLine(pattern: RegExp): Promise<string> {
    let exited = false;
    void this.exited.then(() => {
      exited = true;
      for (const wake of this.stdoutWaiters.splice(0)) wake();
    });
    for (;;) {
      const line = this.stdout.split("\n").find((l) => pattern.test(l));
      if (line !== undefined) return line;
      if (exited) throw new Error(`daemon exited before printing ${pattern}: ${this.stderr}`);
      await new Promise<void>((wake) => this.stdoutWaiters.push(wake));
    }
  }

  client(): Promise<DaemonClient> {
    return DaemonClient.unix(join(this.home, "daemon.sock"));
  }

  kill(): void {
    this.proc.kill("SIGKILL");
  }

  /** SIGTERM to its whole process group, then waits for it to exit. */
  async stop(): Promise<void> {
    try {
      process.kill(-this.proc.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
    await this.exited;
  }
}

/**
 * Registers an afterEach that stops every daemon the file's tests started; returns the starter
 * (on the file's mock LLM server).
 */
export function useDaemonHarnesses(
  llm: () => MockLlmServer,
): (options?: HarnessOptions) => Promise<DaemonHarness> {
  const started: DaemonHarness[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((h) => h.stop()));
  });
  return async (options) => {
    const harness = await DaemonHarness.start(llm().url, options);
    started.push(harness);
    return harness;
  };
}

/**
 * Registers an afterEach that kills (-9) every `shard daemon` child a test put in the returned
 * list and waits for it to exit; for tests that need a whole process (restart, kill -9).
 */
export function useDaemonProcesses(): DaemonProcess[] {
  const processes: DaemonProcess[] = [];
  afterEach(async () => {
    for (const p of processes.splice(0)) {
      p.kill();
      await p.exited;
    }
  });
  return processes;
}
