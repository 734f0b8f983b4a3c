/**
 * Opening an agent whose session holds 1,000 messages, in the system Chromium against a real
 * daemon (issue 10: click → first paint of its transcript, aim < 300 ms). The session is seeded
 * on disk (user prompts, assistant text with Markdown, tool calls and their results) and
 * adopted by `agent.create`. Measured in the page from the click on the agent's row to the
 * first paint that shows its messages (bench/support/page-probe.ts), on a freshly loaded page
 * each run: "warm" with the agent's runtime running, "cold" with it stopped (the attach starts
 * it first).
 *   bun bench/web-open.ts [--runs 7] [--messages 1000]
 */
import { createSession } from "../src/session/create-session.ts";
import { startMockLlmServer } from "../test/support/mock-llm/server.ts";
import { benchHome, benchTempDir } from "./support/bench-home.ts";
import { CdpBrowser, type CdpPage } from "./support/cdp-page.ts";
import { enrolledPage, median, ms, readProbe, startBenchDaemon } from "./support/web-bench.ts";

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const RUNS = arg("--runs", 7);
const MESSAGES = arg("--messages", 1000);

const llm = await startMockLlmServer({ recordRequests: false });
const home = benchHome(llm.url);
const cwd = benchTempDir("cwd");
const paragraph =
  "The change keeps the **parser** and the `writer` apart, so a reader never sees a half-written entry; " +
  "see [the notes](https://example.com/notes) for the reasoning.";
const store = createSession({ home, cwd });
for (let i = 0; i < MESSAGES; i++) {
  const id = `msg_${i}`;
  switch (i % 4) {
    case 0:
      store.append({
        type: "message",
        message: {
          id,
          role: "user",
          content: [{ type: "text", text: `Question ${i}: what does step ${i} change?` }],
        },
      });
      break;
    case 1:
      store.append({
        type: "message",
        message: {
          id,
          role: "assistant",
          content: [
            { type: "text", text: `Looking at step ${i}.\n\n${paragraph}` },
            { type: "tool_call", id: `call_${i}`, name: "read", args: { path: `src/module-${i}.ts` } },
          ],
        },
      });
      break;
    case 2:
      store.append({
        type: "tool_result",
        message: {
          id,
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_call_id: `call_${i - 1}`,
              content: { kind: "text", text: `export function step${i}() {\n  return ${i};\n}\n`.repeat(6) },
            },
          ],
        },
      });
      break;
    default:
      store.append({
        type: "message",
        message: {
          id,
          role: "assistant",
          content: [{ type: "text", text: `${paragraph}\n\n- one\n- two\n\n${paragraph}` }],
        },
      });
  }
}
const sessionId = store.sessionId;
store.close();

const daemon = await startBenchDaemon(home);
const browser = await CdpBrowser.launch();
try {
  const local = await daemon.client();
  const created = await local.ok({ type: "agent.create", cwd, model: "mock/chat", session_id: sessionId });
  const agentId = created.agent_id as string;
  const page = await enrolledPage(browser, daemon.enrollmentUrl);

  /** Loads the room afresh (no agent selected), clicks the agent, returns click → first paint. */
  const open = async (p: CdpPage): Promise<{ ms: number; shown: number }> => {
    await p.goto(`${daemon.url}/`);
    await p.waitFor(`document.querySelector('[data-testid="connection"][data-state="open"]')`);
    await p.waitFor(`document.querySelector('[data-testid="agent-row"][data-agent-id="${agentId}"]')`);
    await p.evaluate(
      `document.querySelector('[data-testid="agent-row"][data-agent-id="${agentId}"]').click(), true`,
    );
    await p.waitFor("window.__benchProbe.messagesPaintedAt > 0", 60_000);
    const probe = await readProbe(p);
    return { ms: probe.messagesPaintedAt - probe.clickAt, shown: probe.messagesPainted };
  };

  const warm: number[] = [];
  let shown = 0;
  await open(page); // warm-up: starts the runtime, JITs the page
  for (let i = 0; i < RUNS; i++) {
    const run = await open(page);
    warm.push(run.ms);
    shown = run.shown;
  }
  const cold: number[] = [];
  for (let i = 0; i < Math.min(3, RUNS); i++) {
    await local.ok({ type: "agent.terminate", agent_id: agentId });
    await local.waitFor(
      (m) => m.type === "agent_status_changed" && m.agent_id === agentId && m.runtime_state === "stopped",
    );
    cold.push((await open(page)).ms);
  }
  console.log("| measure | result | aim |");
  console.log("|---|---|---|");
  console.log(
    `| open an agent with ${MESSAGES.toLocaleString("en")} messages → first paint, runtime running | median **${ms(median(warm))}** (${warm.map((x) => x.toFixed(0)).join(", ")} ms; ${shown} messages drawn) | < 300 ms |`,
  );
  console.log(
    `| the same, runtime stopped (attach starts it) | median ${ms(median(cold))} (${cold.map((x) => x.toFixed(0)).join(", ")} ms) | |`,
  );
} finally {
  await browser.close();
  await daemon.stop();
  await llm.close();
}
