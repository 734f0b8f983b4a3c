/**
 * The selected agent's subagent jobs (`subagent.status` for it as parent): each job with its
 * strategy and state, and under it the runs — alias, state, error — with Stop for a run still
 * going. Kept current by `subagent_run_changed`. Shown only when the agent has jobs, or when they
 * could not be listed (the error is said, not hidden as "no jobs"). Task text never reaches the
 * page (the daemon keeps it private); names and errors are text only.
 */
import { createResource, For, onCleanup, Show } from "solid-js";
import type { RunSnapshot } from "../../../../src/types/subagent-jobs.ts";
import { failed, loaded } from "../../state/attempt.ts";
import type { ControlRoom } from "../../state/control-room.ts";
import { onlineKey } from "../../state/online-key.ts";
import { cost } from "../agents/usage-label.ts";
import { LoadError } from "../shell/load-error.tsx";
import "./jobs.css";

const RUNNING: ReadonlySet<RunSnapshot["state"]> = new Set(["queued", "starting", "active"]);

export function JobsPanel(props: { room: ControlRoom; agentId: string }) {
  const [jobs, { refetch }] = createResource(
    () => onlineKey(props.room, props.agentId),
    ([parent]) =>
      props.room.attempt(async () => {
        // `jobs` is omitted only when `targets` is given, which the panel never sends.
        const data = await props.room.connection.call({ type: "subagent.status", parent_agent_id: parent });
        return data.jobs ?? [];
      }),
  );
  const list = () => loaded(jobs()) ?? [];
  const stopListening = props.room.onDaemonEvent((event) => {
    if (event.type === "subagent_run_changed" && event.parent_agent_id === props.agentId) void refetch();
  });
  onCleanup(stopListening);
  const stop = (run: RunSnapshot) =>
    void props.room
      .run(() =>
        props.room.connection.call({
          type: "subagent.stop",
          parent_agent_id: props.agentId,
          handle: run.run_id,
        }),
      )
      .then(() => refetch());

  return (
    <Show when={list().length > 0 || failed(jobs()) !== undefined}>
      <section class="jobs-panel" aria-label="subagent jobs" data-testid="jobs-panel">
        <Show when={failed(jobs())}>{(error) => <LoadError what="The subagent jobs" error={error()} />}</Show>
        <For each={list()}>
          {(job) => (
            <div class="job" data-testid="job" data-state={job.state}>
              <span class="agent-meta">
                {job.strategy} job · {job.state}
                <Show when={jobCost(job.runs)}>{(c) => <span data-testid="job-cost"> · {c()}</span>}</Show>
              </span>
              <ul>
                <For each={job.runs}>
                  {(run) => (
                    <li class="job-run" data-testid="job-run" data-state={run.state}>
                      <button
                        type="button"
                        class="link"
                        disabled={run.agent_id === undefined}
                        onClick={() => run.agent_id !== undefined && props.room.select(run.agent_id)}
                      >
                        {run.display_name ?? run.alias ?? run.name}
                      </button>
                      <span class="agent-meta">
                        {run.name} · {run.state}
                        {run.error !== undefined ? ` — ${run.error}` : ""}
                      </span>
                      <Show when={RUNNING.has(run.state)}>
                        <button type="button" class="danger" onClick={() => stop(run)}>
                          Stop
                        </button>
                      </Show>
                    </li>
                  )}
                </For>
              </ul>
            </div>
          )}
        </For>
      </section>
    </Show>
  );
}

/** What a job's finished runs cost: unknown when a call had no price, never $0 for it. */
function jobCost(runs: readonly RunSnapshot[]): string | undefined {
  const used = runs.flatMap((r) => (r.usage !== undefined ? [r.usage] : []));
  if (used.length === 0) return undefined;
  const known = used.reduce((sum, u) => sum + (u.cost ?? 0), 0);
  const priced = used.some((u) => u.cost !== undefined);
  if (used.some((u) => u.cost_unknown === true)) return priced ? `${cost(known)} + unknown` : "cost unknown";
  return priced ? cost(known) : undefined;
}
