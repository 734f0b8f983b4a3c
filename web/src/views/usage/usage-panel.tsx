/**
 * The usage page (`daemon.usage`, docs/usage.md): what the daemon's agents cost over a period
 * (1, 7 or 30 days) — totals, the daily cap if one is set, a bar plot of cost per day, cost per
 * model as a table with bars, and cost per agent. An unpriced model's cost reads "unknown",
 * never $0. A failed or malformed answer is said where the figures would be.
 */
import { createResource, createSignal, For, Show } from "solid-js";
import type { DaemonUsageResult, UsageGrouping } from "../../../../src/types/usage.ts";
import { failed, loaded } from "../../state/attempt.ts";
import type { ControlRoom } from "../../state/control-room.ts";
import { cost } from "../agents/usage-label.ts";
import { LoadError } from "../shell/load-error.tsx";
import { DayPlot } from "./day-plot.tsx";
import { costText, daysOf, maxCost, PERIODS, type Period, share, tokensText } from "./usage-figures.ts";
import "./usage.css";

type UsageViews = { day: DaemonUsageResult; model: DaemonUsageResult; agent: DaemonUsageResult };

export function UsagePanel(props: { room: ControlRoom; onClose: () => void }) {
  const [period, setPeriod] = createSignal<Period>("7d");
  const ask = (since: Period, by: UsageGrouping) =>
    props.room.connection.call({ type: "daemon.usage", since, by });
  const [usage, { refetch }] = createResource(
    () => (props.room.online() ? period() : false),
    (since) =>
      props.room.attempt(async (): Promise<UsageViews> => {
        const [day, model, agent] = await Promise.all([
          ask(since, "day"),
          ask(since, "model"),
          ask(since, "agent"),
        ]);
        return { day, model, agent };
      }),
  );

  return (
    <section class="panel usage-panel" aria-labelledby="usage-heading" data-testid="usage-panel">
      <header class="panel-header">
        <h2 id="usage-heading">Usage</h2>
        <span class="usage-tools">
          <fieldset class="usage-periods">
            <legend class="sr-only">Period</legend>
            <For each={PERIODS}>
              {(p) => (
                <button
                  type="button"
                  data-testid={`usage-period-${p}`}
                  aria-pressed={period() === p ? "true" : "false"}
                  onClick={() => setPeriod(p)}
                >
                  {p}
                </button>
              )}
            </For>
          </fieldset>
          <button type="button" data-testid="usage-refresh" onClick={() => void refetch()}>
            Refresh
          </button>
          <button type="button" data-testid="usage-close" onClick={() => props.onClose()}>
            Close
          </button>
        </span>
      </header>
      <Show when={failed(usage())}>{(error) => <LoadError what="Usage" error={error()} />}</Show>
      <Show
        when={loaded(usage())}
        fallback={
          <Show when={usage.loading}>
            <p class="muted">Loading usage…</p>
          </Show>
        }
      >
        {(u) => <UsageFigures views={u()} />}
      </Show>
    </section>
  );
}

function UsageFigures(props: { views: UsageViews }) {
  const total = () => props.views.day.total;
  const days = () => daysOf(props.views.day.since, Date.now(), props.views.day.rows);
  return (
    <>
      <p class="usage-totals" data-testid="usage-totals">
        Since {new Date(props.views.day.since).toISOString().slice(0, 16).replace("T", " ")} UTC:{" "}
        <span data-testid="usage-total-calls">
          {total().calls} {total().calls === 1 ? "call" : "calls"}
        </span>{" "}
        · <span data-testid="usage-total-tokens">{tokensText(total())}</span> ·{" "}
        <span data-testid="usage-total-cost">{costText(total())}</span>
      </p>
      <Show when={props.views.day.daily_budget}>
        {(b) => (
          <p
            class="usage-budget"
            data-testid="usage-daily-budget"
            data-exceeded={b().spent_usd >= b().budget_usd ? "true" : "false"}
          >
            Today: {cost(b().spent_usd)} of the daily cap {cost(b().budget_usd)}
          </p>
        )}
      </Show>
      <h3>Cost per day</h3>
      <DayPlot days={days()} />
      <table class="usage-table" data-testid="usage-days">
        <caption class="sr-only">Cost per day</caption>
        <thead>
          <tr>
            <th scope="col">Day (UTC)</th>
            <th scope="col">Calls</th>
            <th scope="col">Cost</th>
          </tr>
        </thead>
        <tbody>
          <For each={days().filter((d) => d.row !== undefined)} fallback={<EmptyRow span={3} />}>
            {(d) => (
              <tr data-testid="usage-day-row" data-day={d.day}>
                <th scope="row">{d.day}</th>
                <td>{d.row?.calls}</td>
                <td>{d.row === undefined ? "" : costText(d.row)}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
      <h3>Cost per model</h3>
      <GroupTable result={props.views.model} head="Model" testid="usage-model" bars />
      <h3>Cost per agent</h3>
      <GroupTable result={props.views.agent} head="Agent" testid="usage-agent" />
    </>
  );
}

function EmptyRow(props: { span: number }) {
  return (
    <tr>
      <td colSpan={props.span} class="muted">
        No calls in this period.
      </td>
    </tr>
  );
}

/** A grouping's rows, most expensive first; with `bars`, each cost also as a bar of the largest. */
function GroupTable(props: { result: DaemonUsageResult; head: string; testid: string; bars?: boolean }) {
  const max = () => maxCost(props.result.rows);
  return (
    <table class="usage-table" data-testid={`${props.testid}s`}>
      <caption class="sr-only">Cost per {props.head.toLowerCase()}</caption>
      <thead>
        <tr>
          <th scope="col">{props.head}</th>
          <th scope="col">Calls</th>
          <th scope="col">Tokens</th>
          <th scope="col">Cost</th>
        </tr>
      </thead>
      <tbody>
        <For each={props.result.rows} fallback={<EmptyRow span={4} />}>
          {(row) => (
            <tr data-testid={`${props.testid}-row`} data-key={row.key}>
              <th scope="row" class="usage-key">
                {row.label ?? row.key}
              </th>
              <td>{row.calls}</td>
              <td>{tokensText(row)}</td>
              <td class="usage-cost">
                <span data-testid={`${props.testid}-cost`}>{costText(row)}</span>
                <Show when={props.bars}>
                  <span class="usage-bar-track" aria-hidden="true">
                    <span
                      class="usage-bar"
                      data-testid={`${props.testid}-bar`}
                      data-unknown={row.unpriced_calls > 0 ? "true" : "false"}
                      style={{ width: `${Math.round(share(row.cost_usd, max()) * 100)}%` }}
                    />
                  </span>
                </Show>
              </td>
            </tr>
          )}
        </For>
      </tbody>
    </table>
  );
}
