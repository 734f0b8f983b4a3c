/**
 * Cost per day as a small inline-SVG bar plot: one bar per day of the period (an empty day is a
 * zero bar). The SVG carries a title and a description; each bar has its own title; the same
 * figures are in the table below it, so nothing is only in the picture.
 */
import { For, Show } from "solid-js";
import { costText, type DayFigure, maxCost, share } from "./usage-figures.ts";

const WIDTH = 300;
const HEIGHT = 80;

export function DayPlot(props: { days: DayFigure[] }) {
  const max = () => maxCost(props.days.map((d) => d.row ?? { cost_usd: null }));
  const slot = () => WIDTH / Math.max(1, props.days.length);
  const label = (d: DayFigure) => `${d.day}: ${d.row === undefined ? "no calls" : costText(d.row)}`;
  return (
    <figure class="usage-figure">
      <svg
        class="day-plot"
        data-testid="usage-day-plot"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-labelledby="usage-day-plot-title usage-day-plot-desc"
      >
        <title id="usage-day-plot-title">Cost per day</title>
        <desc id="usage-day-plot-desc">{props.days.map(label).join("; ")}</desc>
        <line class="axis" x1="0" x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} />
        <For each={props.days}>
          {(d, i) => {
            // A day with calls always shows at least a sliver, so a cheap or unknown day is seen.
            const h = () =>
              d.row === undefined ? 0 : Math.max(2, share(d.row.cost_usd, max()) * (HEIGHT - 4));
            return (
              <rect
                data-testid="usage-day-bar"
                data-day={d.day}
                data-unknown={d.row !== undefined && d.row.unpriced_calls > 0 ? "true" : "false"}
                x={i() * slot() + slot() * 0.15}
                width={slot() * 0.7}
                y={HEIGHT - 1 - h()}
                height={h()}
              >
                <title>{label(d)}</title>
              </rect>
            );
          }}
        </For>
      </svg>
      <Show when={props.days.some((d) => d.row !== undefined && d.row.unpriced_calls > 0)}>
        <figcaption class="muted" data-testid="usage-day-unknown-note">
          An amber bar's day includes calls at an unknown price: the bar shows the priced part.
        </figcaption>
      </Show>
    </figure>
  );
}
