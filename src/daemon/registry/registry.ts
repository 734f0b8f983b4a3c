/**
 * The registry of durable agents (ARCHITECTURE §3, §8): manifests on disk, at most one live
 * Runtime generation per agent, coalesced start-up, terminate/kill/reap, and what happens when a
 * generation ends. It knows nothing about clients; the broker hears about everything through
 * `RegistryEvents`.
 */
import { join } from "node:path";
import { ProcessRegistry, processGroupsDir } from "../../tools/process-registry.ts";
import type { RuntimeState } from "../../types/agent-info.ts";
import type { AgentCommand } from "../../types/command-table.ts";
import { type Failure, failure } from "../../wire/errors.ts";
import { type CreateParams, newManifest } from "./agent-creation.ts";
import type { AgentManifest } from "./manifest.ts";
import { ManifestStore } from "./manifest-store.ts";
import { runtimeArgs } from "./runtime-args.ts";
import {
  type RuntimeExit,
  type RuntimeMessage,
  RuntimeProcess,
  type RuntimeReady,
} from "./runtime-process.ts";

export interface GenerationEnded {
  exit: RuntimeExit;
  /** False when nobody asked for it (a crash): the broker reports `agent_exited`. */
  expected: boolean;
}

export interface RegistryEvents {
  /** A generation reached hello + sync; called before any of its later messages. */
  ready(agentId: string, epoch: number, ready: RuntimeReady): void;
  /** `line` is the text the runtime wrote for `message` (forwarded without re-encoding). */
  message(agentId: string, message: RuntimeMessage, line: string): void;
  /** A `message_delta` line taken unparsed (RuntimeProcessOptions.onDeltaLine), in order with `message`. */
  deltaLine(agentId: string, line: string, seqAt: number, ascii: boolean): void;
  /** Every line of a chunk of the runtime's output went to `message` or `deltaLine`. */
  outputEnd(agentId: string): void;
  stateChanged(agentId: string, state: RuntimeState, ended?: GenerationEnded): void;
}

export interface RegistryOptions {
  home: string;
  /** argv prefix that runs `shard`. */
  shardCommand: string[];
  env: Record<string, string | undefined>;
  startTimeoutMs: number;
  /** Inactive runtimes stop after this long; 0 keeps them. */
  idleTimeoutMs: number;
  events: RegistryEvents;
  log(line: string): void;
}

type StopReason = "terminate" | "kill" | "reap" | "shutdown";

export interface DurableAgent {
  manifest: AgentManifest;
  runtimeState: RuntimeState;
  /** `runtime_epoch` of the newest generation; -1 before the first. */
  epoch: number;
}

interface AgentRecord extends DurableAgent {
  process?: RuntimeProcess;
  starting?: Promise<RuntimeReady | Failure>;
  stopping?: StopReason;
  terminateWhenIdle: boolean;
  idleTimer?: ReturnType<typeof setTimeout>;
  /** Doing work (streaming, waiting, compacting), as the broker last told: never reaped. */
  active: boolean;
}

export class Registry {
  private readonly agents = new Map<string, AgentRecord>();
  private readonly manifests: ManifestStore;
  /** Runtime process groups on record, so a daemon killed -9 leaves nothing the next one misses. */
  private readonly groups: ProcessRegistry;

  constructor(private readonly options: RegistryOptions) {
    this.manifests = new ManifestStore(options.home);
    this.groups = new ProcessRegistry(processGroupsDir(options.home));
  }

  /**
   * Kills the process groups a dead daemon or a dead runtime recorded (checked by start time,
   * so a reused pid is never touched), then lists every durable agent again. Runtimes start
   * on demand.
   */
  load(): void {
    const killed = this.groups.reapLeftovers();
    if (killed.length > 0)
      this.options.log(`killed ${killed.length} leftover process group(s): ${killed.join(", ")}`);
    const { manifests, problems } = this.manifests.loadAll();
    for (const p of problems) this.options.log(`agent ${p.agent_id}: manifest skipped: ${p.reason}`);
    for (const manifest of manifests) {
      this.agents.set(manifest.agent_id, {
        manifest,
        runtimeState: "stopped",
        epoch: -1,
        terminateWhenIdle: false,
        active: false,
      });
    }
  }

  list(): DurableAgent[] {
    return [...this.agents.values()];
  }

  get(agentId: string): DurableAgent | undefined {
    return this.agents.get(agentId);
  }

  /**
   * Whether a ready runtime takes commands: running, or finishing its work before a deferred
   * terminate (its answers must still reach it), but not once its input is closed.
   */
  isServing(agentId: string): boolean {
    const record = this.agents.get(agentId);
    if (!record?.process || record.process.exited || record.stopping !== undefined) return false;
    return record.runtimeState === "running" || record.runtimeState === "stopping";
  }

  get home(): string {
    return this.options.home;
  }

  /** The environment runtimes start with (before SHARD_HOME is set to `home`). */
  get env(): Record<string, string | undefined> {
    return this.options.env;
  }

  /** The durable agent that drives `sessionId`, if one was created for it or adopted it. */
  bySession(sessionId: string): DurableAgent | undefined {
    for (const agent of this.agents.values()) if (agent.manifest.session_id === sessionId) return agent;
    return undefined;
  }

  /**
   * Managed create (a fresh session), or legacy adoption of `session_id`: the manifest is on
   * disk before the runtime starts, and a start failure keeps it for a retry.
   */
  async create(
    params: CreateParams,
    agentId?: string,
  ): Promise<{ ok: true; agent_id: string; started: RuntimeReady | Failure } | Failure> {
    const built = newManifest(
      params,
      {
        home: this.options.home,
        adoptedBy: (sessionId) => this.bySession(sessionId)?.manifest.agent_id,
      },
      agentId,
    );
    if (!built.ok) return built;
    const { manifest } = built;
    try {
      this.manifests.save(manifest);
    } catch (err) {
      return failure("INTERNAL_ERROR", `could not write the agent manifest: ${(err as Error).message}`);
    }
    this.agents.set(manifest.agent_id, {
      manifest,
      runtimeState: "stopped",
      epoch: -1,
      terminateWhenIdle: false,
      active: false,
    });
    const started = await this.ensureRunning(manifest.agent_id);
    return { ok: true, agent_id: manifest.agent_id, started };
  }

  /** Starts a generation unless one is running or starting (concurrent callers share it). */
  ensureRunning(agentId: string): Promise<RuntimeReady | Failure> {
    const record = this.agents.get(agentId);
    if (!record)
      return Promise.resolve(failure("NOT_FOUND", `no agent ${agentId}; agent.list shows the agents`));
    if (record.starting) return record.starting;
    if (record.process && !record.process.exited && record.stopping === undefined) {
      return record.process.ready;
    }
    if (record.process && !record.process.exited) {
      return Promise.resolve(
        failure(
          "CONFLICT",
          `agent ${agentId} is stopping; retry once agent_status_changed reports it stopped`,
        ),
      );
    }
    const starting = this.start(agentId, record);
    record.starting = starting;
    void starting.finally(() => {
      if (record.starting === starting) record.starting = undefined;
    });
    return starting;
  }

  /** A command to the live runtime; false when there is none. */
  send(agentId: string, command: AgentCommand): boolean {
    const record = this.agents.get(agentId);
    if (!record?.process || !this.isServing(agentId)) return false;
    return record.process.send(command);
  }

  /**
   * The broker tells the registry whether the agent is doing work whenever that changes: the
   * registry keeps the fact (reaping, deferred terminate) and never asks back.
   */
  activityChanged(agentId: string, active: boolean): void {
    const record = this.agents.get(agentId);
    if (!record) return;
    record.active = active;
    this.reconsiderIdle(record);
  }

  private reconsiderIdle(record: AgentRecord): void {
    if (!record.process || record.runtimeState === "starting") return;
    if (record.idleTimer) clearTimeout(record.idleTimer);
    record.idleTimer = undefined;
    if (record.active) return;
    if (record.terminateWhenIdle) {
      this.stop(record, "terminate");
      return;
    }
    if (this.options.idleTimeoutMs > 0 && record.runtimeState === "running") {
      record.idleTimer = setTimeout(() => {
        if (!record.active) this.stop(record, "reap");
      }, this.options.idleTimeoutMs);
    }
  }

  /** Normal teardown: an inactive runtime stops now, an active one when it next goes inactive. */
  terminate(agentId: string): { deferred: boolean } {
    const record = this.agents.get(agentId);
    if (!record?.process || record.process.exited) return { deferred: false };
    if (!record.active) {
      this.stop(record, "terminate");
      return { deferred: false };
    }
    record.terminateWhenIdle = true;
    this.setState(record, "stopping");
    return { deferred: true };
  }

  /** Signals the runtime's process group and resolves once it has exited. */
  async kill(agentId: string, force: boolean): Promise<void> {
    const record = this.agents.get(agentId);
    const process = record?.process;
    if (!record || !process || process.exited) return;
    record.stopping = "kill";
    process.kill(force ? "SIGKILL" : "SIGTERM");
    await process.whenExited;
  }

  /** Graceful: every runtime finishes its turn, then stops. `force`: kill them all now. */
  async shutdown(force: boolean): Promise<void> {
    const exits: Promise<unknown>[] = [];
    for (const record of this.agents.values()) {
      const process = record.process;
      if (!process || process.exited) continue;
      exits.push(process.whenExited);
      if (force) {
        record.stopping = "shutdown";
        process.kill("SIGKILL");
      } else if (record.active) {
        record.terminateWhenIdle = true;
      } else {
        this.stop(record, "shutdown");
      }
    }
    await Promise.all(exits);
  }

  private stop(record: AgentRecord, reason: StopReason): void {
    if (!record.process || record.process.exited) return;
    record.stopping = reason;
    this.setState(record, "stopping");
    record.process.closeInput();
  }

  private async start(agentId: string, record: AgentRecord): Promise<RuntimeReady | Failure> {
    record.epoch += 1;
    const epoch = record.epoch;
    record.stopping = undefined;
    record.terminateWhenIdle = false;
    this.setState(record, "starting");
    const process = new RuntimeProcess({
      argv: [...this.options.shardCommand, ...runtimeArgs(record.manifest)],
      cwd: record.manifest.cwd,
      // SHARD_AGENT_ID: the runtime's `subagent` tool names its agent as the parent.
      env: { ...this.options.env, SHARD_HOME: this.options.home, SHARD_AGENT_ID: agentId },
      logPath: join(this.options.home, "logs", "agents", `${agentId}.log`),
      startTimeoutMs: this.options.startTimeoutMs,
      onReady: (ready) => this.onReady(record, epoch, ready),
      onMessage: (message, line) => this.options.events.message(agentId, message, line),
      onDeltaLine: (line, seqAt, ascii) => this.options.events.deltaLine(agentId, line, seqAt, ascii),
      onOutputEnd: () => this.options.events.outputEnd(agentId),
      onExit: (exit) => this.onExit(record, process, exit),
    });
    record.process = process;
    const untrack = this.groups.track(process.pid, `shard agent ${agentId}`);
    void process.whenExited.then(untrack);
    return process.ready;
  }

  /**
   * The agent's mode as its runtime last reported it, kept in the manifest so `agent.list` and a
   * child's inherited mode are right while the runtime is stopped, after a daemon restart too.
   */
  recordMode(agentId: string, mode: string): void {
    const record = this.agents.get(agentId);
    if (record && record.manifest.mode !== mode) this.remember(record, { mode }, "its mode");
  }

  private remember(record: AgentRecord, patch: Partial<AgentManifest>, what: string): void {
    record.manifest = { ...record.manifest, ...patch };
    try {
      this.manifests.save(record.manifest);
    } catch (err) {
      this.options.log(
        `agent ${record.manifest.agent_id}: could not record ${what}: ${(err as Error).message}`,
      );
    }
  }

  private onReady(record: AgentRecord, epoch: number, ready: RuntimeReady): void {
    const sessionId = ready.sync.session_id;
    if (record.manifest.session_id === undefined && sessionId !== undefined) {
      this.remember(record, { session_id: sessionId }, "its session");
    }
    if (record.manifest.mode !== ready.sync.mode)
      this.remember(record, { mode: ready.sync.mode }, "its mode");
    this.options.events.ready(record.manifest.agent_id, epoch, ready);
    this.setState(record, "running");
    this.reconsiderIdle(record);
  }

  private onExit(record: AgentRecord, process: RuntimeProcess, exit: RuntimeExit): void {
    if (record.process !== process) return;
    record.process = undefined;
    record.active = false;
    if (record.idleTimer) clearTimeout(record.idleTimer);
    record.idleTimer = undefined;
    const expected = record.stopping !== undefined;
    record.stopping = undefined;
    record.terminateWhenIdle = false;
    const state: RuntimeState = expected ? "stopped" : "failed";
    this.options.log(
      `agent ${record.manifest.agent_id}: runtime ${exit.reason}${expected ? "" : " unexpectedly"}`,
    );
    record.runtimeState = state;
    this.options.events.stateChanged(record.manifest.agent_id, state, { exit, expected });
  }

  private setState(record: AgentRecord, state: RuntimeState): void {
    if (record.runtimeState === state) return;
    record.runtimeState = state;
    this.options.events.stateChanged(record.manifest.agent_id, state);
  }
}
