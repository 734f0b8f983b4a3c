/**
 * Notices on a phone-sized page: a model server's HTML 500 page arrives as its status and first
 * line; a long error shows one line with the rest folded under Details; the stack sits under the
 * top bar and clear of the Send button, each × on screen and a full tap target; × dismisses, and
 * a notice that is not fatal goes away by itself (the page's clock is moved on, not waited for).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Locator } from "playwright-core";
import { NOTICE_EXPIRY_MS } from "../../web/src/state/control-room.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { openAgentPage, prompt, turnEnd } from "./support/agent-page.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { agentRow } from "./support/control-room-page.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

const HTML_500 = `<!DOCTYPE html>
<html><head><title>500 Internal Server Error</title><style>body { font: 12px serif }</style></head>
<body><h1>Internal Server Error</h1>${"<p>The server encountered an internal error.</p>".repeat(400)}</body></html>`;

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (b === null) throw new Error("not laid out");
  return b;
}

describe.skipIf(!HAVE_CHROMIUM)("notices in Chromium", () => {
  test("a model server's 500 page is one capped, dismissible notice that expires", async () => {
    // One attempt: the runtime reports the provider's error at once instead of retrying it.
    const daemon = await startDaemon({ env: { SHARD_RETRY_MAX_ATTEMPTS: "1" } });
    const context = await openContext({ viewport: { width: 390, height: 844 } });
    await context.clock.install();
    const shown = await openAgentPage(daemon, context);
    const { page } = shown;
    // The turns fail on another agent the page watches: the open agent's own failures are
    // markers in its transcript (turn-failures.test.ts), another's are notices.
    const other = String(
      (await shown.client.ok({ type: "agent.create", cwd: daemon.cwd, model: "mock/chat" })).agent_id,
    );
    await shown.client.ok({ type: "agent.attach", agent_id: other });
    // Open it and come back (Alt+↓ / Alt+↑: the list is a drawer on a phone); it stays watched.
    await agentRow(page, other).waitFor({ state: "attached" });
    await page.keyboard.press("Alt+ArrowDown");
    await page.waitForURL(`**/?agent=${other}`);
    await page.keyboard.press("Alt+ArrowUp");
    await page.waitForURL(`**/?agent=${shown.agentId}`);
    const agent = { ...shown, agentId: other };

    llm().enqueue({ status: 500, error_html: HTML_500 });
    llm().enqueue({ status: 400, error_type: `bad request: ${"a field was wrong; ".repeat(60)}` });
    for (const text of ["first", "second"]) {
      const from = agent.client.messages.length;
      await prompt(agent, text);
      await turnEnd(agent, from);
    }
    const notices = page.getByTestId("notice");
    await notices.nth(1).waitFor();
    expect(await notices.count()).toBe(2);

    const html = notices.nth(0);
    const summary = (await html.getByTestId("notice-summary").textContent()) ?? "";
    expect(summary).toContain("500 Internal Server Error");
    expect(summary).not.toContain("<");
    expect(summary).not.toContain("internal error.");

    // The long one: a line on show, the rest folded.
    const long = notices.nth(1);
    expect(
      await long.getByTestId("notice-details").evaluate((d) => d instanceof HTMLDetailsElement && d.open),
    ).toBe(false);
    expect((await box(long)).height).toBeLessThan(160);

    // Under the top bar, above the Send button, every × on screen and 44 px square.
    const stack = await box(page.getByTestId("notices"));
    const topbar = await box(page.locator(".topbar"));
    const send = await box(page.getByTestId("send"));
    expect(stack.y).toBeGreaterThanOrEqual(topbar.y + topbar.height);
    expect(stack.y + stack.height).toBeLessThanOrEqual(send.y);
    for (const dismiss of await page.getByTestId("notice-dismiss").all()) {
      const b = await box(dismiss);
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width).toBeLessThanOrEqual(390);
      expect(b.width).toBeGreaterThanOrEqual(44);
      expect(b.height).toBeGreaterThanOrEqual(44);
    }

    await html.getByTestId("notice-dismiss").click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="notice"]').length === 1);
    expect(await notices.getAttribute("data-lasting")).toBe("false");
    await context.clock.fastForward(NOTICE_EXPIRY_MS + 1_000);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="notice"]').length === 0);
  });
});
