/**
 * The in-memory index of every job record: by job, run and child agent, and per parent, so a
 * handle resolves only inside the parent that names it (ownership never crosses).
 */
import { foldAlias } from "./alias-pool.ts";
import { isTerminal, type JobRecord, type RunRecord } from "./job-record.ts";

export interface RunRef {
  job: JobRecord;
  run: RunRecord;
}

export type Resolved =
  | { kind: "job"; job: JobRecord }
  | { kind: "run"; ref: RunRef }
  /** An agent or alias: its current (queued/active) run, else its latest terminal one. */
  | { kind: "agent"; agentId: string; ref: RunRef };

export class JobCatalog {
  private readonly jobs = new Map<string, JobRecord>();
  private readonly runs = new Map<string, RunRef>();
  /** Every run of a child agent, oldest first (relaunch adds one). */
  private readonly byAgent = new Map<string, RunRef[]>();

  add(job: JobRecord): void {
    this.jobs.set(job.job_id, job);
    for (const run of job.runs) {
      const ref = { job, run };
      this.runs.set(run.run_id, ref);
      const list = this.byAgent.get(run.agent_id) ?? [];
      list.push(ref);
      this.byAgent.set(run.agent_id, list);
    }
  }

  all(): JobRecord[] {
    return [...this.jobs.values()];
  }

  job(jobId: string): JobRecord | undefined {
    return this.jobs.get(jobId);
  }

  run(runId: string): RunRef | undefined {
    return this.runs.get(runId);
  }

  /** The newest run of a child agent (any parent). */
  latestRunOf(agentId: string): RunRef | undefined {
    return this.byAgent.get(agentId)?.at(-1);
  }

  /** The parent's jobs, newest first. */
  jobsOf(parentId: string): JobRecord[] {
    return this.all()
      .filter((j) => j.parent_agent_id === parentId)
      .sort((a, b) => b.created_at - a.created_at);
  }

  /** Folded aliases already given to this parent's children. */
  aliasesOf(parentId: string): Set<string> {
    const taken = new Set<string>();
    for (const job of this.jobs.values())
      if (job.parent_agent_id === parentId) for (const run of job.runs) taken.add(foldAlias(run.alias));
    return taken;
  }

  /** Typed ids first, then the parent's aliases; anything another parent owns is not found. */
  resolve(parentId: string, handle: string): Resolved | undefined {
    const job = this.jobs.get(handle);
    if (job) return job.parent_agent_id === parentId ? { kind: "job", job } : undefined;
    const ref = this.runs.get(handle);
    if (ref) return ref.job.parent_agent_id === parentId ? { kind: "run", ref } : undefined;
    const ownRefs = this.byAgent.get(handle);
    if (ownRefs) return this.agentRef(parentId, handle, ownRefs);
    const folded = foldAlias(handle);
    for (const [agentId, refs] of this.byAgent) {
      const latest = refs.at(-1);
      if (latest?.job.parent_agent_id !== parentId || foldAlias(latest.run.alias) !== folded) continue;
      return this.agentRef(parentId, agentId, refs);
    }
    return undefined;
  }

  private agentRef(parentId: string, agentId: string, refs: RunRef[]): Resolved | undefined {
    const own = refs.filter((r) => r.job.parent_agent_id === parentId);
    const current = own.find((r) => !isTerminal(r.run.state));
    const ref = current ?? own.at(-1);
    return ref ? { kind: "agent", agentId, ref } : undefined;
  }
}
