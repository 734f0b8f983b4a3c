/**
 * The daemon's subagent jobs (docs/protocol.md §10.4, docs/architecture.md §7.2), loaded by the
 * broker on the first `subagent.*` command so an idle daemon never pays for them. It owns the job
 * store, the catalog, the coordinator and the waiters, answers the commands, tells the owning
 * parent's connections about every committed run transition and injects completion reports.
 */
import { describeError } from "../../support/describe-error.ts";
import type { AgentEvent } from "../../types/catalog.ts";
import type { SubagentRunChangedEvent } from "../../types/subagent.ts";
import type { WireError } from "../../wire/errors.ts";
import type { BrokerContext } from "../broker/broker-context.ts";
import type { ClientConnection } from "../broker/client-connection.ts";
import type { Registry } from "../registry/registry.ts";
import { completionReport } from "./completion-report.ts";
import { Coordinator } from "./coordinator.ts";
import { JobCatalog } from "./job-catalog.ts";
import { isTerminal, type JobRecord, type RunRecord } from "./job-record.ts";
import { JobStore } from "./job-store.ts";
import { restOfChain } from "./run-order.ts";
import type { Changed, Transition } from "./run-transitions.ts";
import { commitTransitions, runChangedEvent } from "./run-transitions.ts";
import { StrictSteers } from "./strict-steer.ts";
import { Waiters } from "./waiters.ts";

export interface SubagentServiceDeps {
  ctx: BrokerContext;
  registry: Registry;
  /** Runs that may be starting or active at once, over all parents (`--max-subagent-runs`). */
  maxConcurrentRuns: number;
  log(line: string): void;
}

export class SubagentService {
  readonly store: JobStore;
  readonly catalog = new JobCatalog();
  readonly waiters = new Waiters();
  readonly coordinator: Coordinator;
  readonly steers: StrictSteers;
  /** Reports whose parent could not start or take them, by parent: sent again once it is ready. */
  private readonly heldReports = new Map<string, { job: JobRecord; run: RunRecord }[]>();
  /** Connections that sent commands for a parent: they hear its run changes. */
  private readonly listeners = new Map<string, Map<string, ClientConnection>>();

  constructor(readonly deps: SubagentServiceDeps) {
    this.store = new JobStore(deps.registry.home);
    this.coordinator = new Coordinator({
      registry: deps.registry,
      ctx: deps.ctx,
      store: this.store,
      catalog: this.catalog,
      maxConcurrentRuns: deps.maxConcurrentRuns,
      log: deps.log,
      changed: (job, changes) => this.changed(job, changes),
    });
    // An undelivered steer is dropped from the child's queue: abort clears it, even when idle.
    this.steers = new StrictSteers((agentId) => {
      deps.ctx.forwarder.forward(agentId, { type: "abort", agent_id: agentId, source: "daemon" });
    });
    this.load();
  }

  /**
   * Starts what may start once the response is on its way: spawning a child takes
   * milliseconds the create/relaunch answer must not wait for.
   */
  scheduleSoon(): void {
    setImmediate(() => this.coordinator.schedule());
  }

  /** `client` hears `subagent_run_changed` of this parent from now on. */
  listen(parentId: string, client: ClientConnection): void {
    let clients = this.listeners.get(parentId);
    if (!clients) {
      clients = new Map();
      this.listeners.set(parentId, clients);
    }
    clients.set(client.id, client);
  }

  /** The run a child serves (its newest), for the cost ledger and the job's budget. */
  runOf(agentId: string): { job_id: string; run_id: string; budget_usd?: number } | undefined {
    const ref = this.catalog.latestRunOf(agentId);
    if (!ref) return undefined;
    const { job, run } = ref;
    return {
      job_id: job.job_id,
      run_id: run.run_id,
      ...(job.budget_usd !== undefined ? { budget_usd: job.budget_usd } : {}),
    };
  }

  childEvent(agentId: string, event: AgentEvent): void {
    this.steers.event(agentId, event);
    this.coordinator.childEvent(agentId, event);
  }

  /** A runtime of `agentId` is ready: the reports it could not take before go now. */
  parentReady(agentId: string): void {
    const held = this.heldReports.get(agentId);
    if (!held) return;
    this.heldReports.delete(agentId);
    for (const { job, run } of held) if (run.report_pending) void this.report(job, run);
  }

  /** A child's `message_delta`, forwarded unparsed: only the coordinator's error watch cares. */
  childDelta(agentId: string): void {
    this.coordinator.childDelta(agentId);
  }

  childEnded(agentId: string, reason: string): void {
    this.steers.ended(agentId);
    this.coordinator.childEnded(agentId, reason);
  }

  /** The connection closed: its waits are dropped and it hears no more run changes. */
  clientClosed(clientId: string): void {
    this.waiters.clientClosed(clientId);
    for (const [parentId, clients] of this.listeners) {
      clients.delete(clientId);
      if (clients.size === 0) this.listeners.delete(parentId);
    }
  }

  /** A non-fatal error event on a child's stream, seen by every client attached to it. */
  announceToChild(agentId: string, error: WireError): void {
    const channel = this.deps.ctx.channel(agentId);
    channel.fanOut(channel.apply({ type: "error", code: error.code, message: error.message, fatal: false }));
  }

  /**
   * Nothing is replayed after a restart: runs that were not terminal are interrupted. Then every
   * run whose parent has not taken its report yet (these, and any a stop or crash held back)
   * is reported, so a parent waiting for its runs never waits forever.
   */
  private load(): void {
    const { jobs, problems } = this.store.loadAll();
    for (const p of problems) this.deps.log(`job record ${p.file} skipped: ${p.reason}`);
    for (const job of jobs) {
      this.catalog.add(job);
      const open = job.runs.filter((r) => !isTerminal(r.state));
      const transitions: Transition[] = [];
      for (const run of open) {
        if (transitions.some((t) => t.run === run)) continue;
        transitions.push({
          run,
          state: "interrupted",
          patch: { error: "the daemon restarted during the run" },
        });
        if (run.state !== "queued") transitions.push(...restOfChain(job, run, "interrupted"));
      }
      if (transitions.length > 0) commitTransitions(this.store, job, transitions, Date.now());
      for (const run of job.runs) if (run.report_pending) void this.report(job, run);
    }
  }

  private changed(job: JobRecord, changes: Changed[]): void {
    for (const change of changes) this.emit(job.parent_agent_id, runChangedEvent(job, change));
    if (!changes.some((c) => isTerminal(c.run.state))) return;
    this.waiters.runSettled();
    for (const change of changes) if (isTerminal(change.run.state)) this.steers.ended(change.run.agent_id);
    for (const change of changes) if (isTerminal(change.run.state)) void this.report(job, change.run);
  }

  private emit(parentId: string, event: SubagentRunChangedEvent): void {
    const { ctx } = this.deps;
    const sent = new Set<string>();
    const clients = this.listeners.get(parentId);
    for (const [id, client] of clients ?? []) {
      if (!ctx.isOpen(client)) {
        clients?.delete(id);
        continue;
      }
      sent.add(id);
      client.send(event);
    }
    for (const a of ctx.channel(parentId).attachments.values())
      if (!sent.has(a.client.id)) a.client.send(event);
  }

  /**
   * Steer while the parent's turn is active, a prompt that wakes it otherwise (one command does
   * both). The run's `report_pending` is cleared once the parent's runtime accepted it (it is in
   * the parent's session then); until then it goes again when the parent's runtime is next ready,
   * and at the next daemon start.
   */
  private async report(job: JobRecord, run: RunRecord): Promise<void> {
    const { registry } = this.deps;
    const parentId = job.parent_agent_id;
    const undelivered = (why: string) => {
      this.deps.log(
        `completion report of run ${run.run_id}: parent ${parentId} ${why}; sent again once it is ready (or at the next start)`,
      );
      const held = this.heldReports.get(parentId) ?? [];
      if (!held.some((h) => h.run === run)) held.push({ job, run });
      this.heldReports.set(parentId, held);
    };
    if (!registry.get(parentId)) {
      this.settleReport(job, run);
      return;
    }
    if (!registry.isServing(parentId)) {
      const started = await registry.ensureRunning(parentId);
      if (!started.ok) return undelivered(`did not start: ${started.error.message}`);
    }
    const answer = await this.coordinator.request(parentId, {
      type: "prompt",
      agent_id: parentId,
      message: completionReport(job, run),
      streaming_behavior: "steer",
    });
    if (!answer.ok) return undelivered(`did not take it: ${answer.error}`);
    this.settleReport(job, run);
  }

  private settleReport(job: JobRecord, run: RunRecord): void {
    if (!run.report_pending) return;
    delete run.report_pending;
    try {
      this.store.save(job);
    } catch (err) {
      this.deps.log(
        `job ${job.job_id}: could not record the report of run ${run.run_id}: ${describeError(err)}`,
      );
    }
  }
}
