/**
 * The plot of turn time against N (log–log), one line per tool and one for the floor, as a
 * hand-written SVG string (pure; no dependency). A point a tool never reached (every run
 * crashed) is drawn as a cross at the top edge, labelled "crashed".
 */

export interface Series {
  label: string;
  /** Median ms per N; undefined where every run crashed. */
  points: { n: number; ms: number | undefined }[];
  dashed?: boolean;
}

const WIDTH = 800;
const HEIGHT = 420;
const PAD = { left: 70, right: 240, top: 20, bottom: 50 };
const COLORS = ["#d62728", "#ff7f0e", "#9467bd", "#8c564b", "#1f77b4", "#2ca02c", "#e377c2", "#17becf"];

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Powers of ten covering [min, max]. */
export function decades(min: number, max: number): number[] {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) out.push(10 ** e);
  return out;
}

export function renderPlot(series: readonly Series[], title: string): string {
  const ns = [...new Set(series.flatMap((s) => s.points.map((p) => p.n)))].sort((a, b) => a - b);
  const values = series.flatMap((s) => s.points.flatMap((p) => (p.ms === undefined ? [] : [p.ms])));
  const yTicks = decades(Math.max(0.1, Math.min(...values, 1)), Math.max(...values, 10));
  const [yMin, yMax] = [yTicks[0] as number, yTicks[yTicks.length - 1] as number];
  const [xMin, xMax] = [(ns[0] ?? 1) / 1.5, (ns[ns.length - 1] ?? 10) * 1.5];
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (n: number) =>
    PAD.left + ((Math.log10(n) - Math.log10(xMin)) / (Math.log10(xMax) - Math.log10(xMin))) * plotW;
  const y = (ms: number) =>
    PAD.top + plotH - ((Math.log10(ms) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))) * plotH;
  const f = (v: number) => v.toFixed(1);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${PAD.left}" y="14" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  for (const t of yTicks) {
    out.push(
      `<line x1="${PAD.left}" x2="${PAD.left + plotW}" y1="${f(y(t))}" y2="${f(y(t))}" stroke="#dddddd"/>`,
    );
    out.push(
      `<text x="${PAD.left - 6}" y="${f(y(t) + 4)}" text-anchor="end">${t >= 1000 ? `${t / 1000} s` : `${t} ms`}</text>`,
    );
  }
  for (const n of ns) {
    out.push(
      `<line x1="${f(x(n))}" x2="${f(x(n))}" y1="${PAD.top}" y2="${PAD.top + plotH}" stroke="#dddddd"/>`,
    );
    out.push(
      `<text x="${f(x(n))}" y="${PAD.top + plotH + 16}" text-anchor="middle">${n.toLocaleString("en-US")}</text>`,
    );
  }
  out.push(
    `<rect x="${PAD.left}" y="${PAD.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#333333"/>`,
  );
  out.push(
    `<text x="${PAD.left + plotW / 2}" y="${HEIGHT - 12}" text-anchor="middle">text deltas in the turn (log)</text>`,
  );
  out.push(
    `<text transform="translate(16 ${PAD.top + plotH / 2}) rotate(-90)" text-anchor="middle">prompt → end of turn at the client (log)</text>`,
  );
  const crashes = new Map<number, number>();
  series.forEach((s, i) => {
    const color = s.dashed ? "#000000" : (COLORS[i % COLORS.length] as string);
    const dash = s.dashed ? ` stroke-dasharray="6 4"` : "";
    const reached = s.points.filter((p): p is { n: number; ms: number } => p.ms !== undefined);
    if (reached.length > 1) {
      const path = reached.map((p, k) => `${k === 0 ? "M" : "L"}${f(x(p.n))} ${f(y(p.ms))}`).join(" ");
      out.push(`<path d="${path}" fill="none" stroke="${color}" stroke-width="2"${dash}/>`);
    }
    for (const p of reached)
      out.push(`<circle cx="${f(x(p.n))}" cy="${f(y(p.ms))}" r="3.5" fill="${color}"/>`);
    for (const p of s.points.filter((q) => q.ms === undefined)) {
      // Crashes at the same N stack downwards so their labels stay apart.
      const stacked = crashes.get(p.n) ?? 0;
      crashes.set(p.n, stacked + 1);
      const [cx, cy] = [x(p.n), PAD.top + 10 + stacked * 16];
      out.push(
        `<path d="M${f(cx - 5)} ${f(cy - 5)} L${f(cx + 5)} ${f(cy + 5)} M${f(cx - 5)} ${f(cy + 5)} L${f(cx + 5)} ${f(cy - 5)}" stroke="${color}" stroke-width="2"/>`,
      );
      // Left of the cross: the largest N sits at the plot's right edge.
      const text = `${escapeXml(s.label)} crashed`;
      out.push(`<text x="${f(cx - 9)}" y="${f(cy + 4)}" fill="${color}" text-anchor="end">${text}</text>`);
    }
    const ly = PAD.top + 10 + i * 20;
    const lx = PAD.left + plotW + 14;
    out.push(
      `<line x1="${lx}" x2="${lx + 24}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="2"${dash}/>`,
    );
    out.push(`<text x="${lx + 30}" y="${ly + 4}">${escapeXml(s.label)}</text>`);
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
