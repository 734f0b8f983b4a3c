/**
 * Failures stay in the transcript (docs/web.md "Failures"), in a real Chromium against a real
 * daemon, agent and mock LLM: a turn the provider refuses leaves an inline marker with the error
 * and Retry, which survives a reload; the header and the agent's row say the same state; Retry
 * sends the prompt again; a retry in progress shows its attempt and reason until the reply comes.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { openAgentPage, prompt, turnEnd } from "./support/agent-page.ts";
import { HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { agentRow } from "./support/control-room-page.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(90_000);
const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

/** The state the header and the agent's row show, once both show `state`. */
async function agreedState(
  page: Page,
  agentId: string,
  state: string,
): Promise<{ header: string; row: string }> {
  const header = page.locator(`[data-testid="agent-status"][data-state="${state}"]`);
  const row = agentRow(page, agentId).locator(`.agent-state[data-state="${state}"]`);
  await header.waitFor();
  await row.waitFor();
  return { header: (await header.textContent()) ?? "", row: (await row.textContent()) ?? "" };
}

describe.skipIf(!HAVE_CHROMIUM)("failed turns in Chromium", () => {
  test("a refused turn leaves a marker with the error and Retry; it survives a reload; Retry sends the prompt again", async () => {
    const daemon = await startDaemon();
    llm().enqueue({ status: 401, error_type: "authentication_error" });
    const agent = await openAgentPage(daemon, await openContext());
    const { page } = agent;
    const from = agent.client.messages.length;
    await prompt(agent, "summarize the repo");
    await turnEnd(agent, from);

    const check = async () => {
      const marker = page.locator('[data-testid="turn-failure"][data-kind="failed"]');
      await marker.waitFor();
      expect(await marker.count()).toBe(1);
      const text = (await marker.getByTestId("turn-failure-message").textContent()) ?? "";
      expect(text).toContain("mock chat at http://127.0.0.1:");
      expect(text).toContain("401");
      expect(await marker.getByRole("button", { name: "Retry" }).isVisible()).toBe(true);
      // Drawn after the prompt it failed.
      const after = await marker.evaluate((el) => {
        const rows = [...document.querySelectorAll('[data-testid="message"], [data-testid="turn-failure"]')];
        const at = rows.indexOf(el);
        return rows[at - 1]?.textContent ?? "";
      });
      expect(after).toContain("summarize the repo");
      const state = await agreedState(page, agent.agentId, "failed");
      expect(state.header).toBe("last turn failed");
      expect(state.row).toBe(state.header);
    };
    await check();
    await page.screenshot({
      path: join(import.meta.dir, "..", "..", "docs", "screenshots", "failed-turn.png"),
    });
    // The error is in the transcript, not (also) a notice.
    expect(await page.locator('[data-testid="notice"]').count()).toBe(0);

    await page.reload();
    await page.locator('[data-testid="transcript-scroll"]').waitFor();
    await check();

    llm().enqueue({ steps: [{ text: "Here is the summary." }] });
    const sent = llm().requests.length;
    const again = agent.client.messages.length;
    await page.getByTestId("turn-failure-retry").click();
    await turnEnd(agent, again);
    await page
      .locator('[data-testid="message"][data-role="assistant"]', { hasText: "Here is the summary." })
      .waitFor();
    // The same prompt went to the model again.
    const messages = llm().requests[sent]?.body.messages as { role: string; content: unknown }[];
    expect(JSON.stringify(messages.at(-1))).toContain("summarize the repo");
    // The failed attempt stays in the history, without Retry; the state is no longer "failed".
    await page.locator('[data-testid="turn-failure"]').waitFor();
    expect(await page.getByTestId("turn-failure-retry").count()).toBe(0);
    await agreedState(page, agent.agentId, "idle");
  });

  test("a retry in progress shows its attempt and reason in the header and the row, until the reply streams", async () => {
    const daemon = await startDaemon();
    llm().enqueue(
      { status: 503, error_type: "overloaded_error" },
      { steps: [{ hold: "second-attempt" }, { text: "Back again." }] },
    );
    const agent = await openAgentPage(daemon, await openContext());
    const { page } = agent;
    const from = agent.client.messages.length;
    await prompt(agent, "hello");
    await llm().waitForHold("second-attempt");

    const state = await agreedState(page, agent.agentId, "retrying");
    expect(state.header).toMatch(/^retrying 2\/4 in [\d.]+ s: mock chat at http:\/\/127\.0\.0\.1:\d+\/v1: /);
    expect(state.row).toBe("retrying 2/4");
    expect(await agentRow(page, agent.agentId).locator(".agent-state").getAttribute("title")).toBe(
      state.header,
    );

    llm().release("second-attempt");
    await turnEnd(agent, from);
    await page
      .locator('[data-testid="message"][data-role="assistant"]', { hasText: "Back again." })
      .waitFor();
    await agreedState(page, agent.agentId, "idle");
    expect(await page.locator('[data-testid="turn-failure"]').count()).toBe(0);
  });

  test("a reply cut off by a killed runtime is marked interrupted once the agent runs again", async () => {
    const daemon = await startDaemon();
    llm().enqueue({ steps: [{ text: "Half of the ans" }, { hold: "never" }] });
    const agent = await openAgentPage(daemon, await openContext());
    const { page } = agent;
    await prompt(agent, "explain the build");
    await llm().waitForHold("never");
    await page.locator('[data-testid="transcript"]', { hasText: "Half of the ans" }).waitFor();
    // Answered once the runtime is gone (SIGKILL: it writes nothing on the way out).
    await agent.client.ok({ type: "agent.kill", agent_id: agent.agentId, force: true });
    llm().release("never");

    // Opening the agent again restarts its runtime on the same session.
    await page.reload();
    const marker = page.locator('[data-testid="turn-failure"][data-kind="interrupted"]');
    await marker.waitFor();
    expect(await marker.getByTestId("turn-failure-message").textContent()).toContain("interrupted");
    expect(await marker.getByRole("button", { name: "Retry" }).isVisible()).toBe(true);
    const state = await agreedState(page, agent.agentId, "interrupted");
    expect(state.header).toBe("last turn interrupted");
    expect(state.row).toBe(state.header);
  });
});
