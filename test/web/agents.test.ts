/**
 * The agent list in a real Chromium against a real daemon and real agents: create from the
 * form with a model and mode from the runtime's catalog, subagents nested under their parent
 * (a finished one folded until its parent is expanded),
 * live activity and usage, Alt+↑/↓ to switch, terminate, kill after a confirmation, and the
 * light/dark theme remembered across a reload. Saves docs/screenshots/control-room*.png.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { childAgent } from "../daemon/support/child-agent.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { typeAndSend } from "./support/composer-input.ts";
import { agentRow, openRoom } from "./support/control-room-page.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(60_000);

const SCREENSHOTS = join(import.meta.dir, "..", "..", "docs", "screenshots");
const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

describe.skipIf(!HAVE_CHROMIUM)("agent list in Chromium", () => {
  test("create with model and mode, nesting, activity, usage, Alt+arrows, terminate, kill, themes", async () => {
    const daemon = await startDaemon();
    const page = await openRoom(await openContext(), daemon.enrollmentUrl);
    await page.emulateMedia({ colorScheme: "dark" });
    const selectedId = () =>
      page.locator('[data-testid="agent-row"][aria-current="true"]').getAttribute("data-agent-id");

    // A first agent with the daemon's defaults.
    await page.getByLabel("working directory").fill(daemon.cwd);
    await page.getByLabel("agent name").fill("api-server");
    await page.getByRole("button", { name: "New agent" }).click();
    await page.locator('[data-testid="agent-row"][aria-current="true"]').waitFor();
    const first = String(await selectedId());
    await page.getByTestId("mode-picker").waitFor();

    // The form now offers the catalogs the open agent's runtime lists.
    await page.getByTestId("create-mode").selectOption("plan");
    await page.getByTestId("create-model").selectOption("mockresp/resp");
    await page.getByLabel("agent name").fill("docs-writer");
    await page.getByRole("button", { name: "New agent" }).click();
    await page.waitForFunction((id) => {
      const current = document.querySelector('[data-testid="agent-row"][aria-current="true"]');
      return current !== null && current.getAttribute("data-agent-id") !== id;
    }, first);
    const second = String(await selectedId());
    await agentRow(page, second).getByTestId("agent-mode").filter({ hasText: "plan" }).waitFor();
    expect(await agentRow(page, second).getByTestId("agent-model").textContent()).toBe("mockresp/resp");
    expect(await agentRow(page, first).locator(".agent-name").textContent()).toBe("api-server");
    expect(await agentRow(page, second).locator(".agent-name").textContent()).toBe("docs-writer");

    // A subagent is listed right under its parent, indented.
    const control = await daemon.client();
    const child = await childAgent(llm(), control, first, "helper");
    // Its run done, the child's runtime stops and the list folds it under its parent.
    await control.waitFor(
      (m) => m.type === "agent_status_changed" && m.agent_id === child && m.runtime_state === "stopped",
    );
    await page.getByTestId("subagents-toggle").filter({ hasText: "Show 1 finished subagent" }).click();
    await agentRow(page, child).waitFor();
    expect(await agentRow(page, child).getAttribute("data-depth")).toBe("1");
    const order = await page
      .locator('[data-testid="agent-row"]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-agent-id")));
    expect(order).toEqual([first, child, second]);

    // Live activity while the first agent streams, then its usage and cost.
    await agentRow(page, first).click();
    await page.locator('[data-testid="transcript"]').waitFor();
    llm().enqueue({
      steps: [{ text: "Working on it" }, { hold: "agents-stream" }],
      usage: { input: 1200, output: 34 },
    });
    await typeAndSend(page, "start");
    await llm().waitForHold("agents-stream");
    await agentRow(page, first).locator('[data-phase="streaming"]').waitFor();
    llm().release("agents-stream");
    await agentRow(page, first).locator('[data-phase="idle"]').waitFor();
    // mock/chat costs $1 / $2 per million tokens in / out.
    await agentRow(page, first)
      .getByTestId("agent-usage")
      .filter({ hasText: "1.2k in · 34 out · $0.0013" })
      .waitFor();

    await page.screenshot({ path: join(SCREENSHOTS, "control-room.png") });

    // Alt+↓ / Alt+↑ walk the list in its order, wrapping.
    await page.locator("body").press("Alt+ArrowDown");
    expect(await selectedId()).toBe(child);
    await page.locator("body").press("Alt+ArrowDown");
    expect(await selectedId()).toBe(second);
    await page.locator("body").press("Alt+ArrowDown");
    expect(await selectedId()).toBe(first);
    await page.getByTestId("composer-input").press("Alt+ArrowUp");
    expect(await selectedId()).toBe(second);

    // Kill asks first; cancelling keeps the agent running.
    await page.getByTestId("kill-agent").click();
    await page.getByTestId("kill-confirm").waitFor();
    await page.getByTestId("kill-confirm-no").click();
    await page.getByTestId("kill-agent").click();
    // The confirmation has the focus on Cancel; Escape cancels too.
    await page.keyboard.press("Escape");
    await page.getByTestId("kill-confirm").waitFor({ state: "detached" });
    expect(await agentRow(page, second).getAttribute("data-runtime-state")).toBe("running");
    await page.getByTestId("kill-agent").click();
    await page.getByTestId("kill-confirm-yes").click();
    await page
      .locator(`[data-testid="agent-row"][data-agent-id="${second}"][data-runtime-state="stopped"]`)
      .waitFor();

    // Terminate asks too, then stops an idle agent at once.
    await agentRow(page, child).click();
    await page.getByTestId("terminate-agent").click();
    await page.getByTestId("terminate-confirm-yes").click();
    await page
      .locator(`[data-testid="agent-row"][data-agent-id="${child}"][data-runtime-state="stopped"]`)
      .waitFor();
    expect((await control.ok({ type: "agent.list" })).agents).toHaveLength(3);

    // Themes: the toggle switches to light and a reload keeps it.
    await agentRow(page, first).click();
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme ?? "system");
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    // No choice yet: the page follows the system's preference.
    expect(await theme()).toBe("system");
    const dark = await background();
    await page.emulateMedia({ colorScheme: "light" });
    const light = await background();
    expect(light).not.toBe(dark);
    await page.emulateMedia({ colorScheme: "dark" });
    await page.getByTestId("theme-toggle").click();
    expect(await theme()).toBe("light");
    expect(await background()).toBe(light);
    await page.getByText("Working on it").waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, "control-room-light.png") });
    // The choice outlives a reload, against the system's dark preference.
    await page.reload();
    await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
    expect(await theme()).toBe("light");
    expect(await background()).toBe(light);
    await page.getByTestId("theme-toggle").click();
    expect(await theme()).toBe("dark");
    expect(await background()).toBe(dark);
  });

  test("on a phone the list is a drawer: open it, pick an agent, it closes; a permission is answered there", async () => {
    const daemon = await startDaemon();
    const control = await daemon.client();
    const ids: string[] = [];
    for (const name of ["api", "web", "docs"]) {
      ids.push(String((await control.ok({ type: "agent.create", cwd: daemon.cwd, name })).agent_id));
    }
    const page = await openRoom(
      await openContext({ viewport: { width: 390, height: 844 } }),
      daemon.enrollmentUrl,
    );
    await page.emulateMedia({ colorScheme: "dark" });
    // Nothing selected yet: the drawer starts open.
    await agentRow(page, ids[1] ?? "").click();
    await page.locator('[data-testid="transcript"]').waitFor();
    expect(await page.getByTestId("sidebar").isVisible()).toBe(false);
    expect(await page.getByTestId("composer-input").isVisible()).toBe(true);

    // Approving from a phone: the dialog fits the screen.
    llm().enqueue(
      {
        steps: [
          { text: "I will list the files." },
          { tool_call: { name: "bash", args: { command: "ls -la" } } },
        ],
      },
      { steps: [{ text: "Listed." }] },
    );
    await typeAndSend(page, "what is in here?");
    const dialog = page.getByTestId("permission-dialog");
    await dialog.waitFor();
    await page.getByTestId("mode-picker").waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    // The top bar's tools fit: none starts left of their row (where it could not be scrolled to).
    const cut = await page.evaluate(() => {
      const row = document.querySelector(".topbar-tools")?.getBoundingClientRect().left ?? 0;
      return [...document.querySelectorAll(".topbar-tools > *")].filter(
        (e) => e.getBoundingClientRect().left < row - 0.5,
      ).length;
    });
    expect(cut).toBe(0);
    await page.screenshot({ path: join(SCREENSHOTS, "phone.png") });
    await dialog.locator("button:not(.danger)").first().click();
    await dialog.waitFor({ state: "detached" });
    await page.getByText("Listed.").waitFor();

    await page.getByTestId("drawer-toggle").click();
    await agentRow(page, ids[2] ?? "").waitFor({ state: "visible" });
    await agentRow(page, ids[2] ?? "").click();
    expect(await page.getByTestId("sidebar").isVisible()).toBe(false);
    await page.waitForFunction(
      (id) => new URL(window.location.href).searchParams.get("agent") === id,
      ids[2] ?? "",
    );
  });
});
