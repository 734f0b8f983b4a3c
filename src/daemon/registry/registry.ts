/**
 * The registry of durable agents (docs/architecture.md §4, §7.1): manifests on disk, at most one
 * live Runtime generation per agent, coalesced start-up, terminate/kill/reap, and what happens when
 * a generation ends. It knows nothing about clients; the broker hears about everything through
 * `RegistryEvents`.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { sweepOwnedContainers } from "../../placements/container-sweep.ts";
import { LOCAL_PLACEMENT, type NamedPlacement } from "../../placements/placement-config.ts";
import { loadPlacements } from "../../placements/placements-file.ts";
import { loadModelCatalog, resolveModel, unknownModelMessage } from "../../providers/catalog.ts";
import { describeError } from "../../support/describe-error.ts";
import { storageFault } from "../../support/storage-fault.ts";
import { telemetry } from "../../telemetry/telemetry.ts";
import { ProcessRegistry, processGroupsDir } from "../../tools/process-registry.ts";
import type { RuntimeState } from "../../types/agent-info.ts";
import type { AgentCommand } from "../../types/command-table.ts";
import type { PlacementInfo } from "../../types/placements.ts";
import type { SandboxMode } from "../../types/sandbox.ts";
import { type Failure, failure } from "../../wire/errors.ts";
import type { RunTaken } from "../../wire/jsonl-decoder.ts";
import { type CreateParams, newManifest } from "./agent-creation.ts";
import { writeAgentMcpConfig } from "./agent-mcp-config.ts";
import { LinkDirs } from "./link-dirs.ts";
import type { AgentBaseline, AgentManifest } from "./manifest.ts";
import { ManifestStore } from "./manifest-store.ts";
import {
  describePlacement,
  findPlacement,
  type Launch,
  type LaunchContext,
  launchFor,
  linkLost,
  placementName,
  usesStdioLink,
} from "./placement-launch.ts";
import {
  type RuntimeExit,
  type RuntimeMessage,
  RuntimeProcess,
  type RuntimeReady,
  type StartFailure,
} from "./runtime-process.ts";
import { RuntimeSlots, type SlotGrant } from "./runtime-slots.ts";
import { SessionMirror } from "./session-mirror.ts";
import { sessionDirectory, sessionInside } from "./session-removal.ts";
import { shuttingDownFailure } from "./shutting-down.ts";
import { isLinkTraffic, type OpenStdioLink } from "./stdio-link-end.ts";
import { openSubagentLink, type SubagentLink } from "./subagent-link.ts";

/** The live-runtimes metric has no attributes: one series per daemon (docs/telemetry.md). */
const LIVE_RUNTIME = {};

export interface GenerationEnded {
  exit: RuntimeExit;
  /** False when nobody asked for it (a crash): the broker reports `agent_exited`. */
  expected: boolean;
  /**
   * The link to a remote placement dropped (docs/placements.md): the agent is `stopped`, not
   * `failed`; the next start reconnects and resumes its session.
   */
  linkLost?: string;
}

export interface RegistryEvents {
  /** A generation reached hello + sync; called before any of its later messages. */
  ready(agentId: string, epoch: number, ready: RuntimeReady): void;
  /** `line` is the text the runtime wrote for `message` (forwarded without re-encoding). */
  message(agentId: string, message: RuntimeMessage, line: string): void;
  /** A `message_delta` line taken unparsed (RuntimeProcessOptions.onDeltaLine), in order with `message`. */
  deltaLine(agentId: string, line: string, seqAt: number, ascii: boolean): void;
  /** A run of `message_delta` lines taken in place (RuntimeProcessOptions.onDeltaRun). */
  deltaRun(agentId: string, text: string, from: number, bytes: Uint8Array): RunTaken | undefined;
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
  /**
   * Live runtimes at most (`--max-runtimes`), per placement (a placement's `max_runtimes`
   * overrides it): past it the oldest idle one there is stopped.
   */
  maxRuntimes: number;
  events: RegistryEvents;
  log(line: string): void;
  /**
   * Records the agent's baseline before its first runtime starts (src/daemon/changes); `anchor`
   * runs once the manifest holds it. Undefined: none now, asked again at the next start.
   */
  recordBaseline?(
    manifest: AgentManifest,
  ): Promise<{ baseline: AgentBaseline; anchor?: () => Promise<void> } | undefined>;
  /**
   * Listens on a unix socket whose connections act for one agent only (src/daemon/agent-scope.ts):
   * the daemon side of an ssh placement's subagent link. Without it, remote runtimes get none.
   */
  listenSubagentLink?(path: string, agentId: string): { stop(closeActiveConnections?: boolean): void };
  /**
   * The daemon's end of a `command` or `container` placement's stdio link (./stdio-link-end.ts).
   * Without it, such runtimes get no `subagent` tool.
   */
  openStdioLink?: OpenStdioLink;
}

type StopReason = "terminate" | "kill" | "reap" | "shutdown" | "shutdown-kill";

/**
 * How long a graceful shutdown lets running turns finish before it kills their runtimes: a
 * stop takes seconds, never as long as a model or a tool likes.
 */
export const SHUTDOWN_GRACE_MS = 5_000;

export interface DurableAgent {
  manifest: AgentManifest;
  runtimeState: RuntimeState;
  /** `runtime_epoch` of the newest generation; -1 before the first. */
  epoch: number;
}

interface AgentRecord extends DurableAgent {
  process?: RuntimeProcess;
  /** The placement the live (or last) generation runs on; undefined on this machine. */
  placement?: NamedPlacement;
  starting?: Promise<RuntimeReady | StartFailure>;
  stopping?: StopReason;
  terminateWhenIdle: boolean;
  idleTimer?: ReturnType<typeof setTimeout>;
  /** Doing work (streaming, waiting, compacting), as the broker last told: never reaped. */
  active: boolean;
  /** When the runtime last became ready, got a command or changed activity (a counter). */
  lastUsed: number;
  /** Waiting for a person's answer (a permission or UI request), as the broker last told. */
  waitsOnPerson: boolean;
  /** `delete` has begun: no generation starts again. */
  deleting?: true;
}

/** A runtime stopped to make room that has not exited after this long is killed. */
const ROOM_KILL_AFTER_MS = 10_000;

export class Registry {
  private readonly agents = new Map<string, AgentRecord>();
  private readonly manifests: ManifestStore;
  /** Runtime process groups on record, so a daemon killed -9 leaves nothing the next one misses. */
  private readonly groups: ProcessRegistry;
  /** Runtime slots per placement name (docs/placements.md, capacity). */
  private readonly slots = new Map<string, RuntimeSlots>();
  private uses = 0;
  private stoppingDaemon = false;
  /** The daemon's copy of sessions on other placements (session-mirror.ts has the rule). */
  private readonly mirror: SessionMirror;
  /** The far-side directories of ssh agents' subagent links (link-dirs.ts). */
  private readonly linkDirs: LinkDirs;

  constructor(private readonly options: RegistryOptions) {
    this.manifests = new ManifestStore(options.home);
    this.groups = new ProcessRegistry(processGroupsDir(options.home));
    this.mirror = new SessionMirror({ home: options.home, env: options.env, log: options.log });
    this.linkDirs = new LinkDirs({ home: options.home, env: options.env, log: options.log });
  }

  /** The slots of `placement`, made at its first start with its cap. */
  private slotsOf(placement: string, max: number): RuntimeSlots {
    let slots = this.slots.get(placement);
    if (!slots) {
      slots = new RuntimeSlots(max, {
        departing: () => this.departing(placement),
        stopOldestIdle: () => this.stopOldestIdle(placement),
      });
      if (this.stoppingDaemon) slots.close();
      this.slots.set(placement, slots);
    }
    return slots;
  }

  /** Every placement with its live runtimes and cap (`placement.list`), this machine first. */
  placements(): PlacementInfo[] {
    const live = (name: string) => this.slots.get(name)?.live ?? 0;
    const file = loadPlacements(this.options.home);
    const infos: PlacementInfo[] = [
      { name: LOCAL_PLACEMENT, kind: "local", live: live(LOCAL_PLACEMENT), max: this.options.maxRuntimes },
    ];
    for (const [name, placement] of file.placements)
      infos.push({
        name,
        kind: placement.kind,
        live: live(name),
        max: placement.max_runtimes ?? this.options.maxRuntimes,
      });
    for (const [name, problem] of file.problems)
      if (name !== "") infos.push({ name, live: 0, max: this.options.maxRuntimes, problem });
    return infos;
  }

  /** Live runtimes and the cap of each placement that has had one (capacity, docs/placements.md). */
  capacity(): { placement: string; live: number; max: number }[] {
    return [...this.slots].map(([placement, slots]) => ({ placement, live: slots.live, max: slots.max }));
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
    const { manifests, problems, removed, deleted } = this.manifests.loadAll();
    for (const id of deleted) {
      this.removeLog(id);
      this.options.log(`agent ${id}: finished its interrupted delete`);
    }
    for (const id of removed)
      this.options.log(`agent ${id}: removed its empty folder (a manifest write failed)`);
    for (const p of problems) this.options.log(`agent ${p.agent_id}: manifest skipped: ${p.reason}`);
    for (const manifest of manifests) {
      if (manifest.ephemeral === true && this.dropEphemeral(manifest.agent_id)) continue;
      this.agents.set(manifest.agent_id, {
        manifest,
        runtimeState: "stopped",
        epoch: -1,
        terminateWhenIdle: false,
        active: false,
        lastUsed: 0,
        waitsOnPerson: false,
      });
    }
    // Link directories a runtime killed without its remote shell left on the far side, in the
    // background (each is an ssh call); an agent's start waits for its own.
    void this.linkDirs.sweepAll((name) => {
      const found = findPlacement(this.options.home, name);
      return found.ok ? found.placement : undefined;
    });
  }

  /**
   * An ephemeral agent outlives its creator's connection only when the daemon died first: the
   * next start deletes it (docs/protocol-additions.md §15). False when that fails (it stays).
   */
  private dropEphemeral(agentId: string): boolean {
    try {
      this.manifests.discard(agentId);
      this.manifests.purge(agentId);
      this.removeLog(agentId);
      this.options.log(`agent ${agentId}: deleted (ephemeral, its creator is gone)`);
      return true;
    } catch (err) {
      this.options.log(`agent ${agentId}: could not delete this ephemeral agent: ${describeError(err)}`);
      return false;
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

  /** Set once the daemon stops: no runtime starts any more. */
  get shuttingDown(): boolean {
    return this.stoppingDaemon;
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
  ): Promise<{ ok: true; agent_id: string; started: RuntimeReady | StartFailure } | Failure> {
    const built = newManifest(
      params,
      {
        home: this.options.home,
        adoptedBy: (sessionId) => this.bySession(sessionId)?.manifest.agent_id,
        modelProblem: (model) => this.modelProblem(model),
        placementProblem: (name) => {
          const found = findPlacement(this.options.home, name);
          return found.ok ? undefined : found.reason;
        },
        env: this.options.env,
      },
      agentId,
    );
    if (!built.ok) return built;
    const { manifest } = built;
    try {
      this.manifests.save(manifest);
    } catch (err) {
      this.options.log(`agent ${manifest.agent_id}: could not write its manifest: ${describeError(err)}`);
      const cause = storageFault(err) ?? "daemon.log has the cause";
      return failure("INTERNAL_ERROR", `could not save the new agent: ${cause}; nothing was created`);
    }
    this.agents.set(manifest.agent_id, {
      manifest,
      runtimeState: "stopped",
      epoch: -1,
      terminateWhenIdle: false,
      active: false,
      lastUsed: 0,
      waitsOnPerson: false,
    });
    const started = await this.ensureRunning(manifest.agent_id);
    return { ok: true, agent_id: manifest.agent_id, started };
  }

  /**
   * Why `model` names no model a runtime could run, or undefined when it names one: checked
   * against the catalog the runtime will load (built-ins on this environment plus models.json).
   */
  modelProblem(model: string): string | undefined {
    const catalog = loadModelCatalog(this.options.home, this.options.env);
    return resolveModel(catalog, model) ? undefined : unknownModelMessage(catalog, model);
  }

  /** Starts a generation unless one is running or starting (concurrent callers share it). */
  ensureRunning(agentId: string): Promise<RuntimeReady | StartFailure> {
    const record = this.agents.get(agentId);
    if (!record)
      return Promise.resolve(failure("NOT_FOUND", `no agent ${agentId}; agent.list shows the agents`));
    if (record.deleting) return Promise.resolve(failure("NOT_FOUND", `agent ${agentId} is being deleted`));
    if (record.starting) return record.starting;
    if (record.process && !record.process.exited && record.stopping === undefined) {
      return record.process.ready;
    }
    if (this.shuttingDown) return Promise.resolve(shuttingDownFailure(`agent ${agentId} cannot start`));
    // A generation on its way out (docs/protocol.md §5.4): the start waits for its exit, then
    // restores.
    const leaving = record.process && !record.process.exited ? record.process.whenExited : undefined;
    if (leaving) this.options.log(`agent ${agentId}: its start waits for the stopping runtime to exit`);
    const starting = leaving
      ? leaving.then(() =>
          this.shuttingDown
            ? shuttingDownFailure(`agent ${agentId} cannot start`)
            : this.start(agentId, record),
        )
      : this.start(agentId, record);
    record.starting = starting;
    // The caller hears a failed start; this bookkeeping chain must not report it again.
    void starting
      .finally(() => {
        if (record.starting === starting) record.starting = undefined;
      })
      .catch(() => {});
    return starting;
  }

  /** A command to the live runtime; false when there is none. */
  send(agentId: string, command: AgentCommand): boolean {
    const record = this.agents.get(agentId);
    if (!record?.process || !this.isServing(agentId)) return false;
    this.touch(record);
    return record.process.send(command);
  }

  /**
   * The broker tells the registry whether the agent is doing work whenever that changes: the
   * registry keeps the fact (reaping, deferred terminate) and never asks back.
   */
  activityChanged(agentId: string, active: boolean, waitsOnPerson = false): void {
    const record = this.agents.get(agentId);
    if (!record) return;
    record.active = active;
    this.touch(record);
    record.waitsOnPerson = waitsOnPerson;
    if (this.stoppingDaemon && waitsOnPerson) {
      this.killForShutdown(record, "asked a person a question");
      return;
    }
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

  /** Sets the agent's name (trimmed), durably; the manifest is unchanged when the write fails. */
  rename(agentId: string, name: string): { ok: true } | Failure {
    const record = this.agents.get(agentId);
    if (!record || record.deleting)
      return failure("NOT_FOUND", `no agent ${agentId}; agent.list shows the agents`);
    const trimmed = name.trim();
    if (trimmed === "") return failure("INVALID_REQUEST", "agent.rename: the name is blank");
    const manifest = { ...record.manifest, name: trimmed };
    try {
      this.manifests.save(manifest);
    } catch (err) {
      this.options.log(`agent ${agentId}: could not save its new name: ${describeError(err)}`);
      const cause = storageFault(err) ?? "daemon.log has the cause";
      return failure("INTERNAL_ERROR", `could not rename agent ${agentId}: ${cause}; its name is unchanged`);
    }
    record.manifest = manifest;
    return { ok: true };
  }

  /**
   * Deletes the agent for good: its folder is set aside first (one atomic rename, the intent a
   * crash cannot half-undo: the next load finishes the job), then its runtime is killed and its
   * folder and log removed. Its session stays under sessions/ unless `session` is set: then
   * the session's directory (its forks too) goes as well, recorded in the same atomic rename.
   * Refused while an agent under it still has a runtime (those are stopped or deleted first),
   * and with `session` while another agent drives that session or one of its forks.
   */
  async delete(agentId: string, options: { session?: boolean } = {}): Promise<{ ok: true } | Failure> {
    const record = this.agents.get(agentId);
    if (!record || record.deleting)
      return failure("NOT_FOUND", `no agent ${agentId}; agent.list shows the agents`);
    const live = this.liveDescendants(agentId);
    if (live.length > 0) {
      return failure(
        "CONFLICT",
        `agent ${agentId} has running subagents (${live.join(", ")}); stop them first (agent.terminate or agent.kill), then delete`,
      );
    }
    const withSession = options.session === true && record.manifest.session_id !== undefined;
    if (withSession) {
      const sharing = this.sharingSession(record.manifest);
      if (sharing.length > 0) {
        return failure(
          "CONFLICT",
          `agent ${agentId}'s session is also driven by agent(s) ${sharing.join(", ")} (the session or a fork of it); delete without "session", or delete those first`,
        );
      }
    }
    try {
      this.manifests.discard(agentId, withSession);
    } catch (err) {
      this.options.log(`agent ${agentId}: could not delete it: ${describeError(err)}`);
      const cause = storageFault(err) ?? "daemon.log has the cause";
      return failure("INTERNAL_ERROR", `could not delete agent ${agentId}: ${cause}; it is unchanged`);
    }
    record.deleting = true;
    const process = record.process;
    if (process && !process.exited) {
      record.stopping = "kill";
      process.kill("SIGKILL");
      await process.whenExited;
    }
    // A start waiting for a slot gives up when it sees `deleting`.
    if (record.starting) await record.starting;
    this.agents.delete(agentId);
    this.manifests.purge(agentId);
    this.removeLog(agentId);
    return { ok: true };
  }

  /** Other agents whose session lies in `manifest`'s session directory (it, or a fork of it). */
  private sharingSession(manifest: AgentManifest): string[] {
    const sessionId = manifest.session_id;
    const dir = sessionId === undefined ? undefined : sessionDirectory(this.options.home, sessionId);
    if (dir === undefined) return [];
    return [...this.agents.values()]
      .filter((other) => other.manifest.agent_id !== manifest.agent_id)
      .filter((other) => {
        const theirs = other.manifest.session_id;
        return theirs !== undefined && sessionInside(this.options.home, theirs, dir);
      })
      .map((other) => other.manifest.agent_id);
  }

  /** Agents below `agentId` (children, their children, …) whose runtime is up or coming up. */
  private liveDescendants(agentId: string): string[] {
    const below = new Set([agentId]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const record of this.agents.values()) {
        const parent = record.manifest.parent_agent_id;
        if (parent !== undefined && below.has(parent) && !below.has(record.manifest.agent_id)) {
          below.add(record.manifest.agent_id);
          grew = true;
        }
      }
    }
    below.delete(agentId);
    return [...below].filter((id) => {
      const record = this.agents.get(id);
      return (
        record !== undefined &&
        (record.starting !== undefined || (record.process !== undefined && !record.process.exited))
      );
    });
  }

  private removeLog(agentId: string): void {
    rmSync(join(this.options.home, "logs", "agents", `${agentId}.log`), { force: true });
  }

  /**
   * The daemon stops; from now on no runtime starts. `force` kills every runtime now. Graceful
   * never waits on a person: a runtime waiting for an answer is killed at once (SIGKILL, so it
   * denies nothing: the request stays in its session and is asked again after a restart), an
   * idle one stops now, and a running turn gets SHUTDOWN_GRACE_MS to finish before it is killed.
   */
  async shutdown(force: boolean): Promise<void> {
    for (const slots of this.slots.values()) slots.close();
    this.stoppingDaemon = true;
    await this.linkDirs.close();
    const exits: Promise<unknown>[] = [];
    const finishing: string[] = [];
    for (const record of this.agents.values()) {
      const process = record.process;
      if (!process || process.exited) continue;
      exits.push(process.whenExited);
      if (force) this.killForShutdown(record);
      else if (record.waitsOnPerson) this.killForShutdown(record, "waits for an answer");
      else if (record.active) {
        record.terminateWhenIdle = true;
        finishing.push(record.manifest.agent_id);
      } else this.stop(record, "shutdown");
    }
    if (exits.length === 0) return;
    this.options.log(
      `daemon stopping: waiting for ${exits.length} runtime(s) to exit${
        finishing.length > 0 ? `; turns finishing: ${finishing.join(", ")}` : ""
      }; any still running in ${SHUTDOWN_GRACE_MS / 1000} s are killed`,
    );
    const timer = setTimeout(() => {
      for (const record of this.agents.values()) {
        if (record.process && !record.process.exited)
          this.killForShutdown(record, `still running after ${SHUTDOWN_GRACE_MS / 1000} s`);
      }
    }, SHUTDOWN_GRACE_MS);
    await Promise.all(exits);
    clearTimeout(timer);
  }

  /** SIGKILL to the runtime's group: nothing it holds open is answered on the way out. */
  private killForShutdown(record: AgentRecord, why?: string): void {
    const process = record.process;
    if (!process || process.exited || record.stopping === "shutdown-kill") return;
    if (why !== undefined)
      this.options.log(`daemon stopping: agent ${record.manifest.agent_id} ${why}: killing its runtime`);
    record.stopping = "shutdown-kill";
    process.kill("SIGKILL");
  }

  private stop(record: AgentRecord, reason: StopReason): void {
    if (!record.process || record.process.exited) return;
    record.stopping = reason;
    this.setState(record, "stopping");
    record.process.closeInput();
  }

  /**
   * The baseline first (before the agent can change anything), then a slot (which may stop the
   * oldest idle runtime and wait for it), then the process.
   */
  private start(agentId: string, record: AgentRecord): Promise<RuntimeReady | StartFailure> {
    // On a placement the baseline is recorded there, through it (src/daemon/changes).
    if (record.manifest.baseline === undefined && this.options.recordBaseline !== undefined)
      return this.ensureBaseline(record).then(() => this.startProcess(agentId, record));
    return this.startProcess(agentId, record);
  }

  private startProcess(agentId: string, record: AgentRecord): Promise<RuntimeReady | StartFailure> {
    const launched = launchFor(record.manifest, this.launchContext());
    if (!launched.ok)
      return Promise.resolve(
        failure("RUNTIME_START_FAILED", `agent ${agentId} was not started: ${launched.reason}`),
      );
    const name = placementName(record.manifest);
    const placement = launched.placement;
    const slots = this.slotsOf(name, placement?.max_runtimes ?? this.options.maxRuntimes);
    const acquire = (launch: Launch, link?: SubagentLink) => {
      const go = (grant: SlotGrant) => this.spawn(agentId, record, grant, slots, launch, placement, link);
      const grant = slots.acquire();
      return grant instanceof Promise ? grant.then(go) : go(grant);
    };
    if (placement === undefined) return acquire(launched.launch);
    // An orphaned container of this agent goes first (it would hold the session), then the
    // daemon's copy of the session goes back, in case the placement lost its own.
    return this.sweepOrphans(agentId, placement)
      .then(() => this.mirror.push(agentId, placement, record.manifest.session_id))
      .then(() => this.openLink(agentId, placement))
      .then((link) => {
        if (link === undefined) return acquire(launched.launch);
        const relaunched = launchFor(record.manifest, this.launchContext(), { agentId, ...link });
        if (relaunched.ok) return acquire(relaunched.launch, link);
        link.close();
        return acquire(launched.launch);
      });
  }

  private launchContext(): LaunchContext {
    return { ...this.options, stdioLink: this.options.openStdioLink !== undefined };
  }

  /** Removes containers still labelled with this agent (docs/placements.md, orphans). */
  private async sweepOrphans(agentId: string, placement: NamedPlacement): Promise<void> {
    if (placement.kind !== "container" || placement.image === undefined) return;
    const swept = await sweepOwnedContainers(placement, agentId, {
      cwd: this.options.home,
      env: this.options.env,
    });
    if (!swept.ok)
      this.options.log(
        `agent ${agentId}: could not sweep orphaned containers on placement ${placement.name}: ${swept.reason}`,
      );
    else if (swept.removed.length > 0)
      this.options.log(
        `agent ${agentId}: removed orphaned container(s) ${swept.removed.map((id) => id.slice(0, 12)).join(", ")} on placement ${placement.name}`,
      );
  }

  /** An ssh placement's runtime reaches the daemon for `subagent` through this (docs/placements.md). */
  private openLink(agentId: string, placement: NamedPlacement): Promise<SubagentLink | undefined> {
    const listen = this.options.listenSubagentLink;
    if (placement.kind !== "ssh" || listen === undefined) return Promise.resolve(undefined);
    return openSubagentLink(agentId, placement, {
      home: this.options.home,
      env: this.options.env,
      listen,
      log: this.options.log,
      dirs: this.linkDirs,
    });
  }

  private spawn(
    agentId: string,
    record: AgentRecord,
    grant: SlotGrant,
    slots: RuntimeSlots,
    launch: Launch,
    placement: NamedPlacement | undefined,
    link?: SubagentLink,
  ): Promise<RuntimeReady | StartFailure> {
    if (!grant.ok) {
      link?.close();
      return Promise.resolve(this.noSlot(agentId, grant.reason, slots, placement));
    }
    if (record.deleting) {
      link?.close();
      slots.release();
      return Promise.resolve(failure("NOT_FOUND", `agent ${agentId} was deleted before it started`));
    }
    record.placement = placement;
    // The agent's own MCP servers (agent-mcp-config.ts) start on this machine only: a placement's
    // runtime cannot read a file here, and agent.create refuses mcp_servers with a placement.
    let mcpConfigFile: string | undefined;
    try {
      if (placement === undefined) mcpConfigFile = writeAgentMcpConfig(this.options.home, record.manifest);
    } catch (err) {
      link?.close();
      slots.release();
      this.options.log(`agent ${agentId}: could not write its MCP servers file: ${describeError(err)}`);
      const cause = storageFault(err) ?? "daemon.log has the cause";
      return Promise.resolve(
        failure(
          "RUNTIME_START_FAILED",
          `agent ${agentId} was not started: could not write its MCP servers file: ${cause}`,
        ),
      );
    }
    record.epoch += 1;
    const epoch = record.epoch;
    record.stopping = undefined;
    record.terminateWhenIdle = false;
    this.setState(record, "starting");
    let process: RuntimeProcess;
    // The runtime's requests on its stdio (--daemon-link stdio, set by launchFor for such placements).
    const openStdio = this.options.openStdioLink;
    const stdioLink =
      openStdio !== undefined && usesStdioLink(placement)
        ? openStdio(agentId, (command) => process.send(command))
        : undefined;
    try {
      process = new RuntimeProcess({
        ...launch,
        ...(mcpConfigFile !== undefined ? { argv: [...launch.argv, "--mcp-config", mcpConfigFile] } : {}),
        logPath: join(this.options.home, "logs", "agents", `${agentId}.log`),
        startTimeoutMs: this.options.startTimeoutMs,
        onReady: (ready) => this.onReady(record, epoch, ready),
        onMessage: (message, line) => {
          // Link traffic is between the runtime and the daemon: never an agent event for clients.
          if (isLinkTraffic(message)) return stdioLink?.take(message, line);
          if (placement !== undefined && message.type === "turn_end")
            this.mirror.pull(agentId, placement, record.manifest.session_id);
          this.options.events.message(agentId, message, line);
        },
        onDeltaLine: (line, seqAt, ascii) => this.options.events.deltaLine(agentId, line, seqAt, ascii),
        onDeltaRun: (text, from, bytes) => this.options.events.deltaRun(agentId, text, from, bytes),
        onOutputEnd: () => this.options.events.outputEnd(agentId),
        onExit: (exit) => this.onExit(record, process, exit),
      });
    } catch (err) {
      link?.close();
      stdioLink?.close();
      slots.release();
      throw err;
    }
    record.process = process;
    const untrack = this.groups.track(process.pid, `shard agent ${agentId}`);
    telemetry().add("shard.runtimes.live", 1, LIVE_RUNTIME);
    void process.whenExited.then(() => {
      link?.close();
      stdioLink?.close();
      untrack();
      slots.release();
      telemetry().add("shard.runtimes.live", -1, LIVE_RUNTIME);
    });
    return process.ready;
  }

  private async ensureBaseline(record: AgentRecord): Promise<void> {
    if (record.manifest.baseline !== undefined || this.options.recordBaseline === undefined) return;
    const recorded = await this.options.recordBaseline(record.manifest);
    if (recorded === undefined) return;
    this.remember(record, { baseline: recorded.baseline }, "its baseline");
    await recorded.anchor?.();
  }

  private noSlot(
    agentId: string,
    reason: "full" | "closed",
    slots: RuntimeSlots,
    placement: NamedPlacement | undefined,
  ): Failure {
    if (reason === "closed") return shuttingDownFailure(`agent ${agentId} cannot start`);
    const max = slots.max;
    const where = placement === undefined ? "" : ` on placement "${placement.name}"`;
    const cap =
      placement?.max_runtimes !== undefined
        ? `its max_runtimes in placements.json`
        : `shard daemon --max-runtimes ${max}, per placement`;
    const room = this.capacity()
      .filter((c) => c.live < c.max)
      .map((c) => c.placement);
    const others = room.length > 0 ? `; placements with room: ${room.join(", ")}` : "";
    return failure(
      "RUNTIME_START_FAILED",
      `agent ${agentId} was not started: ${max} runtimes are live${where}, the cap (${cap}), and none is idle to stop; retry once one is idle, stop one (agent.terminate), or restart the daemon with a higher --max-runtimes${others}`,
    );
  }

  private departing(placement: string): number {
    let count = 0;
    for (const record of this.agents.values())
      if (
        record.process &&
        !record.process.exited &&
        record.stopping !== undefined &&
        placementName(record.manifest) === placement
      )
        count += 1;
    return count;
  }

  /** Past the cap: the runtime idle the longest stops (its agent stays, like an idle-timeout reap). */
  private stopOldestIdle(placement: string): boolean {
    let oldest: AgentRecord | undefined;
    for (const record of this.agents.values()) {
      if (!this.isIdle(record) || placementName(record.manifest) !== placement) continue;
      if (!oldest || record.lastUsed < oldest.lastUsed) oldest = record;
    }
    const process = oldest?.process;
    if (!oldest || !process) return false;
    this.options.log(
      `agent ${oldest.manifest.agent_id}: idle runtime stopped to make room on placement ${placement} (--max-runtimes ${this.slots.get(placement)?.max})`,
    );
    this.stop(oldest, "reap");
    const timer = setTimeout(() => process.kill("SIGKILL"), ROOM_KILL_AFTER_MS);
    timer.unref?.();
    void process.whenExited.then(() => clearTimeout(timer));
    return true;
  }

  private isIdle(record: AgentRecord): boolean {
    return (
      record.process !== undefined &&
      !record.process.exited &&
      record.stopping === undefined &&
      !record.terminateWhenIdle &&
      !record.active &&
      record.runtimeState === "running"
    );
  }

  private touch(record: AgentRecord): void {
    this.uses += 1;
    record.lastUsed = this.uses;
  }

  /**
   * The agent's mode as its runtime last reported it, kept in the manifest so `agent.list` and a
   * child's inherited mode are right while the runtime is stopped, after a daemon restart too.
   */
  recordMode(agentId: string, mode: string): void {
    const record = this.agents.get(agentId);
    if (record && record.manifest.mode !== mode) this.remember(record, { mode }, "its mode");
  }

  /**
   * The session the runtime now writes (a conversation restore forked it): a restart resumes
   * that one, and deleting the agent with its session removes that one.
   */
  recordSession(agentId: string, sessionId: string): void {
    const record = this.agents.get(agentId);
    if (record && record.manifest.session_id !== sessionId)
      this.remember(record, { session_id: sessionId }, "its session");
  }

  /** The sandbox mode a `set_sandbox` applied, kept in the manifest like the mode (see recordMode). */
  recordSandbox(agentId: string, sandbox: SandboxMode): void {
    const record = this.agents.get(agentId);
    if (record && record.manifest.sandbox !== sandbox) this.remember(record, { sandbox }, "its sandbox");
  }

  private remember(record: AgentRecord, patch: Partial<AgentManifest>, what: string): void {
    record.manifest = { ...record.manifest, ...patch };
    try {
      this.manifests.save(record.manifest);
    } catch (err) {
      this.options.log(`agent ${record.manifest.agent_id}: could not record ${what}: ${describeError(err)}`);
    }
  }

  private onReady(record: AgentRecord, epoch: number, ready: RuntimeReady): void {
    const sessionId = ready.sync.session_id;
    if (record.manifest.session_id === undefined && sessionId !== undefined) {
      this.remember(record, { session_id: sessionId }, "its session");
    }
    if (record.manifest.mode !== ready.sync.mode)
      this.remember(record, { mode: ready.sync.mode }, "its mode");
    this.touch(record);
    this.options.events.ready(record.manifest.agent_id, epoch, ready);
    this.setState(record, "running");
    this.reconsiderIdle(record);
  }

  private onExit(record: AgentRecord, process: RuntimeProcess, exit: RuntimeExit): void {
    if (record.process !== process) return;
    record.process = undefined;
    if (record.placement !== undefined)
      this.mirror.pull(record.manifest.agent_id, record.placement, record.manifest.session_id);
    record.active = false;
    if (record.idleTimer) clearTimeout(record.idleTimer);
    record.idleTimer = undefined;
    const expected = record.stopping !== undefined;
    record.stopping = undefined;
    record.terminateWhenIdle = false;
    const lost =
      !expected && record.placement !== undefined && linkLost(record.placement, exit.code)
        ? `lost its link to ${describePlacement(record.placement)}`
        : undefined;
    const state: RuntimeState = expected || lost !== undefined ? "stopped" : "failed";
    this.options.log(
      `agent ${record.manifest.agent_id}: runtime ${exit.reason}${lost !== undefined ? `: ${lost}` : expected ? "" : " unexpectedly"}`,
    );
    record.runtimeState = state;
    this.options.events.stateChanged(record.manifest.agent_id, state, {
      exit,
      expected,
      ...(lost !== undefined ? { linkLost: lost } : {}),
    });
  }

  private setState(record: AgentRecord, state: RuntimeState): void {
    if (record.runtimeState === state) return;
    record.runtimeState = state;
    this.options.events.stateChanged(record.manifest.agent_id, state);
  }
}
