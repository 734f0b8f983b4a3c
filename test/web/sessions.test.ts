/**
 * The sessions panel in Chromium on a real daemon and agents: fork at a message opens the fork
 * as its own agent (session-first: fork, session.list, session.activate, attach), the original
 * can be resumed from the list, and compact now shows the compaction marker with the token
 * figures of the `compaction` event (after a reload, the marker without figures).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { typeAndSend } from "./support/composer-input.ts";
import { agentRow, openRoom } from "./support/control-room-page.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

async function say(page: Page, message: string, answer: string): Promise<void> {
  llm().enqueue({ steps: [{ text: answer }] });
  await typeAndSend(page, message);
  await page.getByTestId("transcript").getByText(answer).waitFor();
  await page.locator('[data-testid="agent-status"]', { hasText: "idle" }).waitFor();
}

const selectedId = (page: Page) =>
  page.locator('[data-testid="agent-row"][aria-current="true"]').getAttribute("data-agent-id");

describe.skipIf(!HAVE_CHROMIUM)("sessions in Chromium", () => {
  test("fork at a message opens the fork; the original is resumed from the list", async () => {
    const daemon = await startDaemon();
    const control = await daemon.client();
    const original = String(
      (await control.ok({ type: "agent.create", cwd: daemon.cwd, name: "main" })).agent_id,
    );
    const page = await openRoom(await openContext(), daemon.enrollmentUrl);
    await agentRow(page, original).click();
    await say(page, "first question", "first answer");
    await say(page, "second question", "second answer");

    await page.getByTestId("sessions-toggle").click();
    const options = await page.getByTestId("fork-message").locator("option").allTextContents();
    expect(options).toEqual([
      "you: first question",
      "agent: first answer",
      "you: second question",
      "agent: second answer",
    ]);
    await page.getByTestId("fork-message").selectOption({ label: "agent: first answer" });
    await page.getByTestId("fork").click();

    // The fork is a new agent with the conversation up to that message.
    await page.waitForFunction((id) => {
      const row = document.querySelector('[data-testid="agent-row"][aria-current="true"]');
      return row !== null && row.getAttribute("data-agent-id") !== id;
    }, original);
    const fork = String(await selectedId(page));
    await page.getByTestId("transcript").getByText("first answer").waitFor();
    expect(await page.getByTestId("transcript").textContent()).not.toContain("second question");
    const sessions = (await control.ok({ type: "session.list", cwd: daemon.cwd })).sessions;
    expect(sessions).toHaveLength(2);
    const forked = sessions.find((s: { fork?: unknown }) => s.fork !== undefined);
    expect(forked).toBeDefined();

    // Both sessions are listed on the fork; the original resumes its own agent.
    await page.getByTestId("sessions-toggle").click();
    await page.locator('[data-testid="session-row"]').nth(1).waitFor();
    const current = page.locator(`[data-testid="session-row"][data-session-id="${forked.session_id}"]`);
    await current.getByTestId("session-current").waitFor();
    const other = sessions.find((s: { session_id: string }) => s.session_id !== forked.session_id);
    await page
      .locator(`[data-testid="session-row"][data-session-id="${other.session_id}"]`)
      .getByTestId("resume-session")
      .click();
    await page.waitForFunction((id) => {
      const row = document.querySelector('[data-testid="agent-row"][aria-current="true"]');
      return row?.getAttribute("data-agent-id") === id;
    }, original);
    await page.getByTestId("transcript").getByText("second answer").waitFor();
    expect(fork).not.toBe(original);
  });

  test("compact now: a short conversation is left alone, a longer one shows the marker and its figures", async () => {
    const daemon = await startDaemon();
    // Keep as little as possible, so two exchanges are enough to compact.
    writeFileSync(
      join(daemon.process.home, "config.json"),
      JSON.stringify({ compaction: { enabled: true, keep_recent_tokens: 1 } }),
    );
    const control = await daemon.client();
    const agentId = String((await control.ok({ type: "agent.create", cwd: daemon.cwd })).agent_id);
    await control.ok({ type: "agent.attach", agent_id: agentId });
    const page = await openRoom(await openContext(), daemon.enrollmentUrl);
    await agentRow(page, agentId).click();
    await page.getByTestId("sessions-toggle").click();
    await page.getByTestId("compact-now").click();
    await page.getByTestId("session-said").filter({ hasText: "Nothing to compact yet" }).waitFor();
    expect(await page.getByTestId("compaction-marker").count()).toBe(0);

    await say(page, "explain the build in detail", "The build runs vite, then bun compile.");
    await say(page, "and the tests?", "bun test runs them all.");
    const from = control.messages.length;
    await page.getByTestId("compact-now").click();
    const event = await control.waitAgent(agentId, "compaction", from);
    const figures = `${event.tokens_before.toLocaleString("en")} → ${event.tokens_after.toLocaleString("en")} tokens`;
    await page.getByTestId("compaction-figures").filter({ hasText: figures }).waitFor();
    expect(await page.getByTestId("compaction-marker").textContent()).toContain("Compacted (#1)");

    // After a reload the window still says it was compacted, with the same figures (they come with sync).
    await page.reload();
    await page.getByTestId("compaction-marker").waitFor();
    await page.getByTestId("compaction-figures").filter({ hasText: figures }).waitFor();
  });
});
