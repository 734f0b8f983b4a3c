/**
 * The usage page in a real Chromium against a real daemon (docs/usage.md, docs/web.md): after two
 * priced turns and one unpriced, it shows the totals ("$2.00 + unknown", never $0), the daily cap,
 * a bar per day of the period, a bar per model (the unpriced one "unknown") and a row per agent;
 * the period choice asks again; it is reachable by keyboard, and axe finds nothing serious in it
 * at desktop and phone size. A malformed answer is said in place of the figures. Writes
 * docs/screenshots/usage.png.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { mockHome } from "../agent/support/agent-process.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { seriousViolations } from "./support/axe.ts";
import { HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { typeAndSend } from "./support/composer-input.ts";
import { agentRow, openRoom } from "./support/control-room-page.ts";
import { type RewritingProxy, startRewritingProxy } from "./support/rewriting-proxy.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(120_000);

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();
const proxies: RewritingProxy[] = [];
afterEach(() => {
  for (const proxy of proxies.splice(0)) proxy.stop();
});
const SCREENSHOTS = join(import.meta.dir, "..", "..", "docs", "screenshots");

/** mock/chat: $1 per million input tokens. */
const DOLLAR = { input: 1_000_000, output: 0 };
/** axe checks the panel: the transcript beside it is checked in a11y.test.ts. */
const PANEL = '[data-testid="usage-panel"]';
const TODAY = new Date().toISOString().slice(0, 10);

describe.skipIf(!HAVE_CHROMIUM)("the usage page in Chromium", () => {
  test("totals, daily cap, a bar per day and per model, unknown for the unpriced model, per agent", async () => {
    const home = mockHome(llm().url, [{ id: "unpriced", context_window: 100_000, max_output: 4096 }]);
    const daemon = await startDaemon({ home, args: ["--daily-budget-usd", "10"] });
    const control = await daemon.client();
    const priced = String(
      (await control.ok({ type: "agent.create", cwd: daemon.cwd, model: "mock/chat", name: "priced" }))
        .agent_id,
    );
    const free = String(
      (await control.ok({ type: "agent.create", cwd: daemon.cwd, model: "mock/unpriced", name: "free" }))
        .agent_id,
    );
    // axe's script is injected into the page: only this context lets it past the CSP.
    const context = await openContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(daemon.enrollmentUrl);
    await page.locator('[data-testid="connection"][data-state="open"]').waitFor();

    await agentRow(page, priced).click();
    await page.getByTestId("composer-input").waitFor();
    llm().enqueue({ steps: [{ text: "one" }], usage: DOLLAR });
    await typeAndSend(page, "first");
    await page.getByTestId("agent-header-usage").filter({ hasText: "$1.00" }).waitFor();
    llm().enqueue({ steps: [{ text: "two" }], usage: DOLLAR });
    await typeAndSend(page, "second");
    await page.getByTestId("agent-header-usage").filter({ hasText: "$2.00" }).waitFor();
    await agentRow(page, free).click();
    await page.getByTestId("agent-header").locator("h2").filter({ hasText: "free" }).waitFor();
    await page.getByTestId("composer-input").waitFor();
    llm().enqueue({ steps: [{ text: "three" }], usage: { input: 1000, output: 10 } });
    await typeAndSend(page, "third");
    await page.getByTestId("agent-header-usage").filter({ hasText: "cost unknown" }).waitFor();

    // Opened from the keyboard.
    await page.getByTestId("usage-toggle").focus();
    await page.keyboard.press("Enter");
    const panel = page.getByTestId("usage-panel");
    await panel.getByTestId("usage-totals").waitFor();
    expect(await page.getByTestId("usage-toggle").getAttribute("aria-expanded")).toBe("true");
    expect(await panel.getByTestId("usage-total-calls").textContent()).toBe("3 calls");
    expect(await panel.getByTestId("usage-total-tokens").textContent()).toBe("2.0M in · 10 out");
    expect(await panel.getByTestId("usage-total-cost").textContent()).toBe("$2.00 + unknown");
    expect(await panel.getByTestId("usage-daily-budget").textContent()).toBe(
      "Today: $2.00 of the daily cap $10.00",
    );

    // 7 days back from now spans 8 UTC days: one bar each, today's drawn and marked part unknown.
    const bars = panel.getByTestId("usage-day-bar");
    expect(await bars.count()).toBe(8);
    const today = panel.locator(`[data-testid="usage-day-bar"][data-day="${TODAY}"]`);
    expect(Number(await today.getAttribute("height"))).toBeGreaterThan(0);
    expect(await today.getAttribute("data-unknown")).toBe("true");
    expect(await panel.getByTestId("usage-day-plot").locator("desc").textContent()).toContain(
      `${TODAY}: $2.00 + unknown`,
    );
    await panel.getByTestId("usage-day-unknown-note").waitFor();
    const dayRows = panel.getByTestId("usage-day-row");
    expect(await dayRows.count()).toBe(1);
    expect(await dayRows.textContent()).toBe(`${TODAY}3$2.00 + unknown`);

    const models = panel.getByTestId("usage-model-row");
    expect(await models.count()).toBe(2);
    const chat = models.filter({ hasText: "chat" });
    expect(await chat.getByTestId("usage-model-cost").textContent()).toBe("$2.00");
    expect(await chat.getByTestId("usage-model-bar").getAttribute("style")).toContain("width: 100%");
    const unpriced = models.filter({ hasText: "unpriced" });
    expect(await unpriced.getByTestId("usage-model-cost").textContent()).toBe("unknown");
    expect(await unpriced.getByTestId("usage-model-bar").getAttribute("data-unknown")).toBe("true");
    expect(await panel.textContent()).not.toContain("$0.00");

    const agents = panel.getByTestId("usage-agent-row");
    expect(await agents.count()).toBe(2);
    expect(await agents.filter({ hasText: "priced" }).getByTestId("usage-agent-cost").textContent()).toBe(
      "$2.00",
    );
    expect(await agents.filter({ hasText: "free" }).getByTestId("usage-agent-cost").textContent()).toBe(
      "unknown",
    );
    expect(await seriousViolations(page, PANEL)).toEqual([]);
    await panel.screenshot({ path: join(SCREENSHOTS, "usage.png") });

    // The period choice asks again: 30 days back spans 31 UTC days.
    await panel.getByTestId("usage-period-30d").focus();
    await page.keyboard.press("Enter");
    await panel.locator('[data-testid="usage-period-30d"][aria-pressed="true"]').waitFor();
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="usage-day-bar"]').length === 31,
    );
    expect(await panel.getByTestId("usage-total-cost").textContent()).toBe("$2.00 + unknown");

    // At phone size the page does not scroll sideways, and stays accessible.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await panel.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect(await seriousViolations(page, PANEL)).toEqual([]);
  });

  test("a malformed answer is said where the figures would be, never as $0", async () => {
    const daemon = await startDaemon();
    const proxy = startRewritingProxy(daemon.url);
    proxies.push(proxy);
    // The daemon answers as if the total's cost had become a string.
    proxy.rewriteWith((message) => {
      const data = message.data;
      return message.type === "response" && message.command === "daemon.usage" && typeof data === "object"
        ? { ...message, data: { ...data, total: { calls: 0, input: 0, output: 0, cost_usd: "0" } } }
        : message;
    });
    const page = await openRoom(await openContext(), `${proxy.origin}/${new URL(daemon.enrollmentUrl).hash}`);
    await page.getByTestId("usage-toggle").click();
    const panel = page.getByTestId("usage-panel");
    const error = panel.getByTestId("load-error");
    await error.waitFor();
    expect(await error.textContent()).toContain(
      "Usage could not be loaded: INTERNAL_ERROR: daemon.usage response:",
    );
    expect(await panel.getByTestId("usage-totals").count()).toBe(0);
    expect(await panel.textContent()).not.toContain("$0");
  });
});
