import { expect, test } from "bun:test";
import { decades, escapeXml, renderPlot } from "../../bench/peers/svg-plot.ts";

const series = [
  {
    label: "Shard compiled",
    points: [
      { n: 1000, ms: 20 },
      { n: 10_000, ms: 61 },
      { n: 50_000, ms: 242 },
    ],
  },
  {
    label: "pi <0.73.1>",
    points: [
      { n: 1000, ms: 250 },
      { n: 10_000, ms: 1535 },
      { n: 50_000, ms: undefined },
    ],
  },
  {
    label: "floor: mock alone",
    dashed: true,
    points: [
      { n: 1000, ms: 2 },
      { n: 10_000, ms: 13 },
      { n: 50_000, ms: 50 },
    ],
  },
];

test("the plot is a standalone SVG with one line and legend entry per series", () => {
  const svg = renderPlot(series, "Turn time & N");
  expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
  expect(svg).toContain("<title>Turn time &#38; N</title>");
  expect(svg).toContain("Shard compiled");
  expect(svg).toContain("pi &#60;0.73.1&#62;"); // labels are escaped
  expect(svg.match(/<path d="M[^"]*" fill="none"/g)?.length).toBe(3); // pi's line has two reached points
  expect(svg).toContain('stroke-dasharray="6 4"');
  expect(svg).toContain(">pi &#60;0.73.1&#62; crashed</text>"); // pi at 50k
  expect(svg).toContain(">10,000</text>");
  expect(svg).not.toContain("NaN");
});

test("a faster turn is drawn lower on the log axis", () => {
  const svg = renderPlot(series, "t");
  const ys = [...svg.matchAll(/<circle cx="[\d.]+" cy="([\d.]+)"/g)].map((m) => Number(m[1]));
  // Circles in series order: Shard 1k, 10k, 50k, pi 1k, 10k, floor 1k, 10k, 50k.
  // y grows downwards: Shard's 61 ms sits below pi's 1,535 ms.
  expect(ys[1]).toBeGreaterThan(ys[4] as number);
});

test("decades cover the range; XML specials are escaped", () => {
  expect(decades(2, 1535)).toEqual([1, 10, 100, 1000, 10_000]);
  expect(escapeXml(`a<b>&"'`)).toBe("a&#60;b&#62;&#38;&#34;&#39;");
});
