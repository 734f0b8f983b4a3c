/**
 * Accessibility, checked by axe-core in a real Chromium on the main screens — the control room
 * with agents, an agent's transcript, a permission dialog, the workspaces panel — at desktop and
 * phone size, in the light and the dark theme: no serious or critical violation. A permission
 * request is also spoken: an assertive live region, there before the request, says it as it
 * arrives.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { seriousViolations } from "./support/axe.ts";
import { HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { typeAndSend } from "./support/composer-input.ts";
import { agentRow } from "./support/control-room-page.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(120_000);

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

const SIZES = [
  { name: "desktop", viewport: { width: 1280, height: 800 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
] as const;
/** The system's preference picks the theme (no toggle pressed): each is checked on its own. */
const THEMES = ["light", "dark"] as const;

async function expectAccessible(page: Page, screen: string): Promise<void> {
  expect({ screen, violations: await seriousViolations(page) }).toEqual({ screen, violations: [] });
}

describe.skipIf(!HAVE_CHROMIUM)("accessibility (axe-core)", () => {
  for (const theme of THEMES) {
    for (const size of SIZES) {
      test(`${theme}, ${size.name}: control room, transcript, permission dialog and workspaces panel`, async () => {
        const daemon = await startDaemon();
        const control = await daemon.client();
        const ids: string[] = [];
        for (const name of ["api-server", "docs-writer"]) {
          const created = await control.ok({
            type: "agent.create",
            cwd: daemon.cwd,
            model: "mock/chat",
            name,
          });
          ids.push(String(created.agent_id));
        }
        // axe's script is injected into the page: only this test's context lets it past the CSP.
        const context = await openContext({ viewport: size.viewport, bypassCSP: true });
        const page = await context.newPage();
        await page.emulateMedia({ colorScheme: theme });
        await page.goto(daemon.enrollmentUrl);
        await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
        expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe(theme);
        await agentRow(page, ids[0] ?? "").waitFor();
        await expectAccessible(page, "control room");

        await agentRow(page, ids[0] ?? "").click();
        await page.getByTestId("transcript").waitFor();
        const announcer = page.getByRole("alert").and(page.getByTestId("request-announcer"));
        expect(await announcer.textContent()).toBe("");
        llm().enqueue(
          {
            steps: [
              { text: "I will **list** the files:\n\n- first\n- `second`" },
              { tool_call: { name: "bash", args: { command: "ls -la" } } },
            ],
          },
          { steps: [{ text: "Listed." }] },
        );
        await typeAndSend(page, "what is in here?");
        const dialog = page.getByRole("alertdialog", { name: "permission request: bash" });
        await dialog.waitFor();
        // Spoken at once, wherever the focus is.
        await page.waitForFunction(
          () =>
            document
              .querySelector('[data-testid="request-announcer"]')
              ?.textContent?.startsWith("Permission needed: bash") === true,
        );
        await expectAccessible(page, "permission dialog");

        await dialog.locator("button:not(.danger)").first().click();
        await dialog.waitFor({ state: "detached" });
        await page.getByText("Listed.").waitFor();
        await expectAccessible(page, "transcript");

        await page.getByTestId("workspaces-toggle").click();
        await page.getByLabel("project directory").waitFor();
        await expectAccessible(page, "workspaces panel");
      });
    }
  }
});
