/**
 * The coordinator (docs/architecture.md §7.2): starts queued runs within the concurrency limit —
 * every parallel run, one chain step at a time, each fed the previous step's final text — as
 * managed child agents through the registry, turns each child's turn into a terminal run state, and
 * enforces each run's deadline. Children are started, prompted and stopped exactly like any
 * other agent; only the coordinator holds the lease that lets it prompt them.
 */

import { TurnErrorWatch } from "../../snapshot/turn-error.ts";
import type { AgentEvent } from "../../types/catalog.ts";
import type { AgentCommand } from "../../types/command-table.ts";
import type { RunState } from "../../types/subagent-jobs.ts";
import type { BrokerContext } from "../broker/broker-context.ts";
import type { ClientConnection, DaemonMessage } from "../broker/client-connection.ts";
import type { EncodedMessage } from "../broker/encoded-message.ts";
import type { Registry } from "../registry/registry.ts";
import { childSandbox } from "./child-sandbox.ts";
import type { JobCatalog, RunRef } from "./job-catalog.ts";
import { isTerminal, type JobRecord, type RunRecord } from "./job-record.ts";
import type { JobStore } from "./job-store.ts";
import { promptText, restOfChain, startable } from "./run-order.ts";
import { type Changed, commitTransitions, type Transition } from "./run-transitions.ts";

/** How long an aborted child may take to go idle before its runtime is killed. */
const KILL_AFTER_MS = 10_000;

export interface CoordinatorDeps {
  registry: Registry;
  ctx: BrokerContext;
  store: JobStore;
  catalog: JobCatalog;
  maxConcurrentRuns: number;
  log(line: string): void;
  /** Told after every commit, in order. */
  changed(job: JobRecord, changes: Changed[]): void;
}

export type RuntimeAnswer = { ok: true; data: unknown } | { ok: false; error: string };

/** What the coordinator knows of a leased child while its run plays out (not durable). */
interface LiveRun {
  ref: RunRef;
  turnId?: string;
  text?: string;
  error?: string;
  /** Tells the error that ended the turn from a warning during it. */
  errors: TurnErrorWatch;
  usage: { input: number; output: number; cost?: number; cost_unknown?: true };
  /** Set once the child's runtime serves this run: an older generation's exit is not its failure. */
  serving?: boolean;
  deadline?: ReturnType<typeof setTimeout>;
}

export class Coordinator {
  /** Leased children by agent id. */
  private readonly live = new Map<string, LiveRun>();
  private readonly client: ClientConnection;
  private readonly requests = new Map<string, (answer: RuntimeAnswer) => void>();
  private nextRequest = 0;

  constructor(private readonly deps: CoordinatorDeps) {
    // The coordinator's own connection: the runtime's answers to its prompts come back here.
    this.client = {
      id: "subagent-coordinator",
      localTrust: true,
      send: (message: DaemonMessage) => this.response(message),
      sendEncoded: (_message: EncodedMessage) => {},
    };
  }

  /** Whether a run holds the agent now (direct prompts conflict). */
  leased(agentId: string): RunRef | undefined {
    return this.live.get(agentId)?.ref;
  }

  /** The turn a run plays now, if it is active and still holds its child. */
  activeTurn(run: RunRecord): string | undefined {
    const live = this.live.get(run.agent_id);
    return live?.ref.run === run && run.state === "active" ? live.turnId : undefined;
  }

  /** Commits the transitions of one job and reports them; then starts whatever may start now. */
  commit(job: JobRecord, transitions: Transition[]): Changed[] {
    const changes = commitTransitions(this.deps.store, job, transitions, Date.now());
    if (changes.length > 0) this.deps.changed(job, changes);
    return changes;
  }

  /** Starts queued runs while the concurrency limit allows, oldest job first. */
  schedule(): void {
    // A stopping daemon starts nothing; the next start interrupts what is left (and reports it).
    if (this.deps.registry.shuttingDown) return;
    let running = this.live.size;
    const jobs = this.deps.catalog.all().sort((a, b) => a.created_at - b.created_at);
    for (const job of jobs) {
      for (const run of startable(job)) {
        if (running >= this.deps.maxConcurrentRuns) return;
        running += 1;
        void this.start({ job, run });
      }
    }
  }

  /** Cancels (or times out) a run: queued at once; active ones are aborted, then stopped. */
  finish(ref: RunRef, state: RunState, error?: string): void {
    const { job, run } = ref;
    if (isTerminal(run.state) || this.deps.registry.shuttingDown) return;
    const live = this.live.get(run.agent_id);
    if (live?.ref.run === run) this.release(run.agent_id, live);
    const transition: Transition = { run, state, ...(error !== undefined ? { patch: { error } } : {}) };
    this.commit(job, [transition, ...restOfChain(job, run, state)]);
    if (live?.ref.run === run) this.stopChild(run.agent_id);
    this.schedule();
  }

  /** A tagged event of some agent: only the leased children's matter. */
  childEvent(agentId: string, event: AgentEvent): void {
    const live = this.live.get(agentId);
    if (!live) return;
    const failedTurn = live.errors.event(event);
    switch (event.type) {
      case "turn_start":
        live.turnId = event.turn_id;
        break;
      case "message_complete":
        if (event.message.role === "assistant") {
          const text = event.message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
          if (text !== "") live.text = text;
        }
        break;
      case "usage":
        live.usage = {
          input: live.usage.input + event.input,
          output: live.usage.output + event.output,
          // An unpriced call's cost is unknown, never 0 (docs/usage.md).
          ...(event.cost !== undefined || live.usage.cost !== undefined
            ? { cost: (live.usage.cost ?? 0) + (event.cost ?? 0) }
            : {}),
          ...(event.cost_unknown === true || live.usage.cost_unknown === true
            ? { cost_unknown: true as const }
            : {}),
        };
        break;
      case "turn_end":
        if (failedTurn) live.error = failedTurn.message;
        if (live.turnId === event.turn_id) this.turnEnded(agentId, live);
        break;
      default:
        break;
    }
  }

  /** A child's `message_delta` (forwarded unparsed): an event after an error, so not the turn's failure. */
  childDelta(agentId: string): void {
    this.live.get(agentId)?.errors.other();
  }

  /** A leased child's runtime ended without finishing its turn. */
  childEnded(agentId: string, reason: string): void {
    const live = this.live.get(agentId);
    // Killed by a stopping daemon: the record stays open, so the next start interrupts and reports it.
    if (!live?.serving || this.deps.registry.shuttingDown) return;
    this.release(agentId, live);
    const { job, run } = live.ref;
    const error = `the child's runtime ${reason} before its turn ended`;
    this.commit(job, [{ run, state: "failed", patch: { error } }, ...restOfChain(job, run, "failed")]);
    this.schedule();
  }

  private turnEnded(agentId: string, live: LiveRun): void {
    this.release(agentId, live);
    const { job, run } = live.ref;
    const patch: Transition["patch"] = { usage: live.usage };
    if (live.text !== undefined) patch.final_text = live.text;
    if (live.error !== undefined) {
      patch.error = live.error;
      this.commit(job, [{ run, state: "failed", patch }, ...restOfChain(job, run, "failed")]);
    } else {
      this.commit(job, [{ run, state: "completed", patch }]);
    }
    // A finished child holds no memory: its runtime stops (attach or a relaunch restores it).
    this.deps.registry.terminate(agentId);
    this.schedule();
  }

  private async start(ref: RunRef): Promise<void> {
    const { job, run } = ref;
    const live: LiveRun = { ref, usage: { input: 0, output: 0 }, errors: new TurnErrorWatch() };
    this.live.set(run.agent_id, live);
    const now = Date.now();
    const deadline = now + run.timeout_s * 1000;
    if (job.strategy === "chain") job.chain_step = run.index;
    this.commit(job, [{ run, state: "starting", patch: { started_at: now, deadline } }]);
    live.deadline = setTimeout(
      () => this.finish(ref, "timed_out", `the run passed its deadline of ${run.timeout_s} s`),
      Math.max(0, deadline - Date.now()),
    );
    const started = await this.materialize(job, run);
    if (this.live.get(run.agent_id) !== live) {
      // Stopped or timed out while the child started: it has no work, so it stops again.
      if (!this.live.has(run.agent_id)) this.stopChild(run.agent_id);
      return;
    }
    if (!started.ok) return this.fail(live, started.error);
    live.serving = true;
    const accepted = await this.prompt(run.agent_id, promptText(job, run));
    if (this.live.get(run.agent_id) !== live) return;
    if (!accepted.ok) return this.fail(live, accepted.error);
    this.commit(job, [{ run, state: "active" }]);
  }

  private fail(live: LiveRun, error: string): void {
    const { job, run } = live.ref;
    this.release(run.agent_id, live);
    // Refused by a stopping daemon: the record stays open for the next start to interrupt.
    if (this.deps.registry.shuttingDown) return;
    this.commit(job, [{ run, state: "failed", patch: { error } }, ...restOfChain(job, run, "failed")]);
    this.schedule();
  }

  /** The child agent: created on its first run (managed, under its parent), restored on later ones. */
  private async materialize(
    job: JobRecord,
    run: RunRecord,
  ): Promise<{ ok: true } | { ok: false; error: string }> {
    const { registry, ctx } = this.deps;
    if (!registry.get(run.agent_id)) {
      const parent = registry.get(job.parent_agent_id)?.manifest;
      // Clamped again at birth: a parent made stricter since the job was created binds it too.
      const { launch } = job;
      const parentSandbox = ctx.agentInfo(job.parent_agent_id)?.sandbox;
      const sandbox =
        parentSandbox &&
        childSandbox(parentSandbox, {
          ...(launch.sandbox !== undefined ? { mode: launch.sandbox } : {}),
          ...(launch.sandbox_policy !== undefined ? { policy: launch.sandbox_policy } : {}),
          ...(launch.network_allow !== undefined ? { network_allow: launch.network_allow } : {}),
        });
      const created = await registry.create(
        {
          cwd: job.launch.cwd,
          // The parent's cwd is a path on its placement: a child runs there too (docs/placements.md).
          ...(parent?.placement !== undefined ? { placement: parent.placement } : {}),
          ...(job.launch.model !== undefined ? { model: job.launch.model } : {}),
          ...(job.launch.mode !== undefined ? { mode: job.launch.mode } : {}),
          ...(parent?.tools !== undefined ? { tools: parent.tools } : {}),
          headless_policy: parent?.headless_policy ?? "deny",
          parent_agent_id: job.parent_agent_id,
          depth: (parent?.depth ?? 0) + 1,
          ...(parent?.launch_policy !== undefined ? { launch_policy: parent.launch_policy } : {}),
          alias: run.alias,
          ...(sandbox?.mode !== undefined ? { sandbox: sandbox.mode } : {}),
          ...(sandbox !== undefined ? { sandbox_policy: sandbox.policy } : {}),
          ...(sandbox !== undefined && sandbox.network_allow.length > 0
            ? { network_allow: sandbox.network_allow }
            : {}),
          ...(launch.traceparent !== undefined ? { traceparent: launch.traceparent } : {}),
        },
        run.agent_id,
      );
      if (!created.ok) return { ok: false, error: created.error.message };
      const info = ctx.agentInfo(run.agent_id);
      if (info) ctx.broadcast({ type: "agent_spawned", agent_id: run.agent_id, info });
      return created.started.ok ? { ok: true } : { ok: false, error: created.started.error.message };
    }
    // A child stopped a moment ago may still be on its way out: let it go, then start afresh.
    if (registry.get(run.agent_id)?.runtimeState === "stopping") await registry.kill(run.agent_id, false);
    const started = await registry.ensureRunning(run.agent_id);
    return started.ok ? { ok: true } : { ok: false, error: started.error.message };
  }

  private async prompt(
    agentId: string,
    message: string,
  ): Promise<{ ok: true } | { ok: false; error: string }> {
    const answer = await this.request(agentId, { type: "prompt", agent_id: agentId, message });
    return answer.ok ? { ok: true } : answer;
  }

  /** A command to a child's runtime on the coordinator's own connection, settled by its response. */
  request(agentId: string, command: AgentCommand): Promise<RuntimeAnswer> {
    this.nextRequest += 1;
    const id = `subagent-${this.nextRequest}`;
    return new Promise((resolve) => {
      this.requests.set(id, resolve);
      if (!this.deps.ctx.forwarder.forward(agentId, { ...command, id }, this.client)) {
        this.requests.delete(id);
        resolve({ ok: false, error: "the child's runtime is not running" });
      }
    });
  }

  private response(message: DaemonMessage): void {
    if (message.type !== "response" || message.id === undefined) return;
    const settle = this.requests.get(message.id);
    if (!settle) return;
    this.requests.delete(message.id);
    settle(
      message.success
        ? { ok: true, data: message.data }
        : { ok: false, error: message.error?.message ?? "rejected by the runtime" },
    );
  }

  private release(agentId: string, live: LiveRun): void {
    if (live.deadline) clearTimeout(live.deadline);
    this.live.delete(agentId);
  }

  /** abort → graceful terminate → kill: the run is already terminal on record. */
  private stopChild(agentId: string): void {
    const { registry, ctx } = this.deps;
    if (!registry.isServing(agentId)) return;
    ctx.forwarder.forward(agentId, { type: "abort", agent_id: agentId, source: "daemon" });
    registry.terminate(agentId);
    // Only the generation that was stopped is killed, never a later one (a relaunch).
    const epoch = registry.get(agentId)?.epoch;
    const timer = setTimeout(() => {
      const agent = registry.get(agentId);
      if (agent?.epoch !== epoch || this.live.has(agentId)) return;
      if (registry.isServing(agentId) || agent?.runtimeState === "stopping")
        void registry.kill(agentId, true);
    }, KILL_AFTER_MS);
    timer.unref?.();
  }
}
