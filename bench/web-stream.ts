/**
 * The web client while a turn streams, in the system Chromium against a real daemon, a real
 * agent and the local streaming server (issue 10):
 *   - `message_delta` received → its text painted, p50 / p99 (aim < 16 / < 50 ms), deltas
 *     paced a few milliseconds apart like a fast model;
 *   - frames per second while 10,000 deltas stream (aim ≥ 50), as fast as the daemon sends
 *     them and paced over ~10 s.
 * Numbers are taken in the page (bench/support/page-probe.ts).
 *   bun bench/web-stream.ts [--deltas 2000] [--gap-ms 4] [--trace] [--profile] [--only unpaced|paced]
 * `--trace` prints where the page's time went in each 10,000-delta run (main thread by kind of
 * work, raster and compositor threads: bench/support/cdp-trace.ts); `--profile` the page's
 * JavaScript functions by self time (bench/support/cdp-profile.ts). `--only` runs one of them.
 * With SHARD_BENCH_TRACE_FILE=<prefix> the raw trace events are written to <prefix>-<run>.json.
 */
import { startMockLlmServer } from "../test/support/mock-llm/server.ts";
import type { MockReply, MockStep } from "../test/support/mock-llm/types.ts";
import { benchHome, benchTempDir } from "./support/bench-home.ts";
import { CdpBrowser, type CdpPage } from "./support/cdp-page.ts";
import { startProfile, summarizeProfile } from "./support/cdp-profile.ts";
import { startTrace, summarizeTrace } from "./support/cdp-trace.ts";
import { enrolledPage, ms, percentile, readProbe, startBenchDaemon } from "./support/web-bench.ts";

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const LATENCY_DELTAS = arg("--deltas", 2000);
const GAP_MS = arg("--gap-ms", 4);
const FLOOD_DELTAS = 10_000;
const TRACE = process.argv.includes("--trace");
const PROFILE = process.argv.includes("--profile");
const ONLY = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;

const llm = await startMockLlmServer({ recordRequests: false });
const daemon = await startBenchDaemon(benchHome(llm.url));
const browser = await CdpBrowser.launch();
try {
  const local = await daemon.client();
  const created = await local.ok({ type: "agent.create", cwd: benchTempDir("cwd"), model: "mock/chat" });
  const agentId = created.agent_id as string;
  await local.ok({ type: "agent.attach", agent_id: agentId, role: "observer" });
  const page = await enrolledPage(browser, daemon.enrollmentUrl, `?agent=${agentId}`);
  await page.waitFor(`document.querySelector('[data-testid="transcript"]')`);

  const turn = async (reply: MockReply) => {
    llm.enqueue(reply);
    const from = local.messages.length;
    await local.ok({ type: "prompt", agent_id: agentId, message: "stream" });
    await local.waitAgent(agentId, "turn_end", from, () => true);
  };
  /** Clears the probe, starts recording frames, and watches for `marker` to be painted. */
  const reset = (p: CdpPage, marker: string) =>
    p.evaluate(`Object.assign(window.__benchProbe, {
      received: [], painted: [], deltas: 0, firstDeltaAt: 0, lastDeltaAt: 0, turnEndAt: 0,
      frames: [], recording: true, endMarker: ${JSON.stringify(marker)}, endPaintedAt: 0 }) && true`);
  const waitEndPainted = (p: CdpPage) => p.waitFor("window.__benchProbe.endPaintedAt > 0", 180_000);

  // Warm-up: the first turn loads the provider SDK in the agent and JITs the page.
  await turn({ steps: [{ text: "warm up [w]", chunks: 20 }] });

  // 1. Receipt → paint, paced deltas.
  const steps: MockStep[] = [];
  // Model text comes in paragraphs: a blank line every 40 deltas.
  for (let i = 0; i < LATENCY_DELTAS; i++)
    steps.push({ text: i % 40 === 39 ? `[d${i}]\n\n` : `[d${i}] ` }, { delay_ms: GAP_MS });
  steps.push({ text: "[latency-end]" });
  await reset(page, "[latency-end]");
  await turn({ steps });
  await waitEndPainted(page);
  const latency = await readProbe(page);
  const lags: number[] = [];
  for (let i = 0; i < LATENCY_DELTAS; i++) {
    const got = latency.received[i];
    const shown = latency.painted[i];
    if (typeof got === "number" && typeof shown === "number") lags.push(shown - got);
  }
  lags.sort((a, b) => a - b);
  const rate = LATENCY_DELTAS / ((latency.lastDeltaAt - latency.firstDeltaAt) / 1000);
  console.log("| measure | result | aim |");
  console.log("|---|---|---|");
  console.log(
    `| \`message_delta\` received → painted (${lags.length} of ${LATENCY_DELTAS} deltas, ${rate.toFixed(0)}/s) | p50 ${ms(percentile(lags, 0.5))} · p99 ${ms(percentile(lags, 0.99))} · max ${ms(percentile(lags, 1))} | < 16 / < 50 ms |`,
  );

  // 2. Frames while 10,000 deltas stream: as fast as they come, then paced over ~10 s. First
  // the same page idle for 2 s: what the machine gives a page at all right now.
  await reset(page, "");
  await Bun.sleep(2000);
  const idle = await readProbe(page);
  await page.evaluate("window.__benchProbe.recording = false");
  const idleSpan = (idle.frames.at(-1) ?? 0) - (idle.frames[0] ?? 0);
  console.log(
    `| frames/s of the idle page (baseline for the rows below) | ${((idle.frames.length - 1) / (idleSpan / 1000)).toFixed(1)} fps | |`,
  );
  let run = 0;
  const fps = async (label: string, body: MockStep[]) => {
    const marker = `[flood-end-${++run}]`;
    await reset(page, marker);
    const stopTrace = TRACE ? await startTrace(browser) : undefined;
    const stopProfile = PROFILE ? await startProfile(page) : undefined;
    await turn({ steps: [...body, { text: ` ${marker}` }] });
    await waitEndPainted(page);
    const profile = await stopProfile?.();
    const trace = await stopTrace?.();
    const probe = await readProbe(page);
    await page.evaluate("window.__benchProbe.recording = false");
    const frames = probe.frames.filter((t) => t >= probe.firstDeltaAt && t <= probe.endPaintedAt);
    const span = probe.endPaintedAt - probe.firstDeltaAt;
    let worst = 0;
    let late = 0;
    for (let i = 1; i < frames.length; i++) {
      const gap = (frames[i] ?? 0) - (frames[i - 1] ?? 0);
      worst = Math.max(worst, gap);
      if (gap > 20) late++;
    }
    console.log(
      `| frames/s while ${FLOOD_DELTAS.toLocaleString("en")} deltas stream, ${label} | **${((frames.length - 1) / (span / 1000)).toFixed(1)} fps** over ${ms(span)} (longest frame ${ms(worst)}, ${late} of ${frames.length - 1} over 20 ms; deltas arrived over ${ms(probe.lastDeltaAt - probe.firstDeltaAt)}) | ≥ 50 |`,
    );
    if (trace !== undefined && process.env.SHARD_BENCH_TRACE_FILE !== undefined)
      await Bun.write(`${process.env.SHARD_BENCH_TRACE_FILE}-${run}.json`, JSON.stringify(trace));
    if (trace !== undefined)
      console.log(
        summarizeTrace(trace, [
          "CrRendererMain",
          "Compositor",
          "CompositorTileWorker",
          "VizCompositorThread",
        ]).join("\n"),
      );
    if (profile !== undefined) console.log(summarizeProfile(profile).join("\n"));
  };
  // ~60 KB of Markdown in paragraphs of ~400 characters, as a model writes it.
  const paragraph =
    "The parser keeps **one entry** per line and the `writer` flushes after each, so a reader never sees half a record. ".repeat(
      3,
    );
  const words = `${paragraph}\n\n`
    .repeat(Math.ceil((FLOOD_DELTAS * 6) / (paragraph.length + 2)))
    .slice(0, FLOOD_DELTAS * 6);
  if (ONLY !== "paced") await fps("unpaced", [{ text: words, chunks: FLOOD_DELTAS }]);
  const perStep = 50;
  const paced: MockStep[] = [];
  for (let i = 0; i < FLOOD_DELTAS / perStep; i++)
    paced.push(
      { text: words.slice(i * perStep * 6, (i + 1) * perStep * 6), chunks: perStep },
      { delay_ms: 50 },
    );
  if (ONLY !== "unpaced") await fps("paced over ~10 s", paced);
} finally {
  await browser.close();
  await daemon.stop();
  await llm.close();
}
