/**
 * The daemon's part of cost control (docs/usage.md, docs/architecture.md §3): it hears every
 * `usage` event of the runtimes it runs and appends it to the cost ledger with its agent,
 * session, turn, model, workspace and subagent job/run. It owns the limits no one runtime can
 * see — the daily cap over all agents and each job's budget over its runs — and tells each
 * runtime what is left of them (`budget_limits`): when it becomes ready, before a prompt a
 * client sends, and after each priced call. The runtime enforces them at its provider boundary,
 * like its own budget.
 */
import { relative, sep } from "node:path";
import type { ExternalBudget } from "../../types/budget.ts";
import type { AgentEvent } from "../../types/catalog.ts";
import type { AgentCommand } from "../../types/command-table.ts";
import type { UsageEvent } from "../../types/stream-events.ts";
import type { LedgerEntry } from "../../types/usage.ts";
import type { AgentHooks } from "../broker/broker.ts";
import type { BrokerContext, CommandReply } from "../broker/broker-context.ts";
import { type CostLedger, dayOf } from "./cost-ledger.ts";
import { spentOnDay, spentPerJob } from "./usage-query.ts";
import { usdText } from "./usd-text.ts";

/** The subagent run an agent serves, when it is a child with a live run. */
export interface RunOf {
  job_id: string;
  run_id: string;
  budget_usd?: number;
}

export interface UsageRecorderDeps {
  ctx: BrokerContext;
  ledger: CostLedger;
  /** `shard daemon --daily-budget-usd`: USD all agents may spend per UTC day. */
  dailyBudgetUsd?: number;
  runOf(agentId: string): RunOf | undefined;
  /** Where worktrees live: an agent working in one is counted under its workspace id. */
  worktreesDir: string;
  log(line: string): void;
  now?: () => number;
}

export class UsageRecorder implements AgentHooks {
  private today: { day: string; spent: number };
  /** Read from the ledger when a job first needs it: a daemon without subagent jobs never reads its history. */
  private jobSpentCache: Map<string, number> | undefined;

  constructor(private readonly deps: UsageRecorderDeps) {
    const day = dayOf(this.now());
    this.today = { day, spent: deps.dailyBudgetUsd === undefined ? 0 : spentOnDay(deps.ledger, day) };
  }

  private jobSpent(): Map<string, number> {
    this.jobSpentCache ??= spentPerJob(this.deps.ledger);
    return this.jobSpentCache;
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /** Today's spending against the cap, when there is one. */
  dailyBudget(): { budget_usd: number; spent_usd: number } | undefined {
    const cap = this.deps.dailyBudgetUsd;
    if (cap === undefined) return undefined;
    this.rollDay();
    return { budget_usd: cap, spent_usd: this.today.spent };
  }

  spentOnJob(jobId: string): number {
    return this.jobSpent().get(jobId) ?? 0;
  }

  /** Before a client's prompt reaches the runtime, it learns what is left (a new day resets the cap). */
  beforeAgentCommand(command: AgentCommand, _reply: CommandReply): Promise<boolean> {
    if ((command.type === "prompt" || command.type === "steer") && command.agent_id !== undefined)
      this.tell(command.agent_id);
    return Promise.resolve(false);
  }

  agentEvent(agentId: string, event: AgentEvent): void {
    if (event.type === "usage") this.record(agentId, event);
  }

  runtimeReady(agentId: string): void {
    // The registry marks the generation serving right after this hook returns; a microtask queued
    // now still runs before whoever awaited the start (a job's first prompt) goes on.
    queueMicrotask(() => this.tell(agentId));
  }

  agentDelta(_agentId: string): void {}
  runtimeEnded(_agentId: string, _reason: string): void {}
  clientClosed(_clientId: string): void {}

  private record(agentId: string, event: UsageEvent): void {
    const agent = this.deps.ctx.registry.get(agentId);
    if (!agent || event.model === undefined) return;
    const run = this.deps.runOf(agentId);
    const sessionId = this.deps.ctx.channel(agentId).snapshot.session_id ?? agent.manifest.session_id;
    const ts = this.now();
    // Read before this entry is appended, or the history read would count it once more.
    const jobSpent = run !== undefined ? this.jobSpent() : undefined;
    const entry: LedgerEntry = {
      ts,
      agent_id: agentId,
      ...(sessionId !== undefined ? { session_id: sessionId } : {}),
      ...(event.turn_id !== undefined ? { turn_id: event.turn_id } : {}),
      model: event.model,
      workspace: this.workspaceOf(agent.manifest.cwd),
      ...(run !== undefined ? { job_id: run.job_id, run_id: run.run_id } : {}),
      input: event.input,
      output: event.output,
      ...(event.cache_read !== undefined ? { cache_read: event.cache_read } : {}),
      ...(event.cache_write !== undefined ? { cache_write: event.cache_write } : {}),
      cost_usd: event.cost ?? null,
    };
    try {
      this.deps.ledger.append(entry);
    } catch (err) {
      this.deps.log(`cost ledger: could not record a call of agent ${agentId}: ${String(err)}`);
    }
    const cost = event.cost;
    if (cost === undefined) return;
    this.rollDay();
    this.today.spent += cost;
    if (run !== undefined && jobSpent !== undefined)
      jobSpent.set(run.job_id, (jobSpent.get(run.job_id) ?? 0) + cost);
    // Others share the cap: every serving runtime hears what is left of it.
    if (this.deps.dailyBudgetUsd !== undefined) {
      for (const other of this.deps.ctx.registry.list()) this.tell(other.manifest.agent_id);
    } else if (run?.budget_usd !== undefined) {
      // The job's other runs share its budget.
      for (const other of this.deps.ctx.registry.list()) {
        const id = other.manifest.agent_id;
        if (this.deps.runOf(id)?.job_id === run.job_id) this.tell(id);
      }
    }
  }

  /** The daemon's limits for one agent, as `budget_limits`; nothing to a runtime not serving. */
  tell(agentId: string): void {
    if (!this.deps.ctx.registry.isServing(agentId)) return;
    const limits = this.limitsFor(agentId);
    this.deps.ctx.forwarder.forward(agentId, { type: "budget_limits", agent_id: agentId, limits });
  }

  limitsFor(agentId: string): ExternalBudget[] {
    const limits: ExternalBudget[] = [];
    const cap = this.dailyBudget();
    if (cap !== undefined)
      limits.push({
        scope: "daily",
        remaining_usd: cap.budget_usd - cap.spent_usd,
        label: `the daemon's daily budget of ${usdText(cap.budget_usd)} (${this.today.day}, UTC)`,
      });
    const run = this.deps.runOf(agentId);
    if (run?.budget_usd !== undefined)
      limits.push({
        scope: "job",
        remaining_usd: run.budget_usd - this.spentOnJob(run.job_id),
        label: `the budget of subagent job ${run.job_id} (${usdText(run.budget_usd)})`,
      });
    return limits;
  }

  private rollDay(): void {
    const day = dayOf(this.now());
    if (day !== this.today.day) this.today = { day, spent: 0 };
  }

  private workspaceOf(cwd: string): string {
    const rel = relative(this.deps.worktreesDir, cwd);
    if (rel === "" || rel.startsWith("..") || rel.startsWith(sep)) return cwd;
    return rel.split(sep)[0] ?? cwd;
  }
}
