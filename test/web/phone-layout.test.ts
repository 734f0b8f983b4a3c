/**
 * The control room on a 390 × 844 phone, in both themes: the top bar is one row and, with the
 * agent header, takes little of the screen; every visible button and menu is a 44 × 44 px tap
 * target; Terminate and Kill each ask before stopping anything; and text — the "needs you"
 * mark, a command's "exit 0" chip, muted meta lines — has a contrast of at least 4.5:1,
 * computed from the page's own computed styles.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import type { DaemonClient } from "../daemon/support/daemon-client.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { agentRow, openRoom } from "./support/control-room-page.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();
const PHONE = { width: 390, height: 844 };

/** Prompts `agentId` into a bash call, which asks for permission; resolves with the request. */
async function askForBash(control: DaemonClient, agentId: string, command: string) {
  llm().enqueue(
    { steps: [{ tool_call: { name: "bash", args: { command } } }] },
    { steps: [{ text: "Ran it." }] },
  );
  const from = control.messages.length;
  await control.ok({ type: "prompt", agent_id: agentId, message: "run it" });
  return control.waitAgent(agentId, "permission_request", from);
}

/**
 * Text elements below 4.5:1 against their effective background (the first opaque one up the
 * tree), with the colours as the browser computed them. Disabled controls are exempt (WCAG).
 */
function lowContrast(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const rgba = (css: string) => {
      const canvas = document.createElement("canvas").getContext("2d");
      if (canvas === null) throw new Error("no canvas");
      canvas.fillStyle = "#000";
      canvas.fillStyle = css;
      canvas.fillRect(0, 0, 1, 1);
      const [r = 0, g = 0, b = 0, a = 0] = canvas.getImageData(0, 0, 1, 1).data;
      canvas.clearRect(0, 0, 1, 1);
      return [r, g, b, a / 255] as const;
    };
    const luminance = ([r, g, b]: readonly number[]) => {
      const f = (c: number) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r ?? 0) + 0.7152 * f(g ?? 0) + 0.0722 * f(b ?? 0);
    };
    const background = (el: Element | null): readonly number[] => {
      const layers: (readonly number[])[] = [];
      for (let at = el; at !== null; at = at.parentElement) {
        const c = rgba(getComputedStyle(at).backgroundColor);
        if (c[3] > 0) layers.push(c);
        if (c[3] >= 1) break;
      }
      // Blend the translucent layers over the opaque one beneath them.
      let out: number[] = [255, 255, 255];
      for (const layer of layers.reverse()) {
        const a = layer[3] ?? 1;
        out = out.map((v, i) => (layer[i] ?? 0) * a + v * (1 - a));
      }
      return out;
    };
    const failures: string[] = [];
    for (const el of document.querySelectorAll(sel)) {
      if (!(el instanceof HTMLElement) || el.offsetParent === null) continue;
      if (el.closest(":disabled") !== null || (el.textContent ?? "").trim() === "") continue;
      const style = getComputedStyle(el);
      if (style.clipPath === "inset(50%)") continue;
      const fg = rgba(style.color);
      const bg = background(el);
      const blended = [0, 1, 2].map((i) => (fg[i] ?? 0) * fg[3] + (bg[i] ?? 0) * (1 - fg[3]));
      const [hi, lo] = [luminance(blended), luminance(bg)].sort((x, y) => y - x);
      const ratio = ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
      if (ratio < 4.5)
        failures.push(
          `${el.className || el.tagName} "${el.textContent?.trim().slice(0, 30)}" ${ratio.toFixed(2)}:1`,
        );
    }
    return failures;
  }, selector);
}

/** Visible buttons and menus smaller than 44 × 44 px. */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll("button, select, summary")]
      .filter((el) => el instanceof HTMLElement && el.offsetParent !== null)
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width < 44 || box.height < 44)
      .map(({ el, box }) => `${el.textContent?.trim().slice(0, 20)} ${box.width}×${box.height}`),
  );
}

const TEXT =
  "[data-testid=needs-you], [data-testid=exit-code], .tx-chip, .agent-meta, .muted, .picker, button, .phase";

describe.skipIf(!HAVE_CHROMIUM)("the control room on a phone", () => {
  test("one-row header, 44 px targets, asked-for stops and 4.5:1 text in both themes", async () => {
    const daemon = await startDaemon();
    const control = await daemon.client();
    const create = async (name: string) => {
      const id = String(
        (await control.ok({ type: "agent.create", cwd: daemon.cwd, name, model: "mock/chat" })).agent_id,
      );
      await control.ok({ type: "agent.attach", agent_id: id });
      return id;
    };
    const shown = await create("shown");
    const waiting = await create("waiting");
    // A command that ran and exited 0 on the open agent; another agent waiting for you.
    const asked = await askForBash(control, shown, "echo hi");
    const from = control.messages.length;
    await control.ok({
      type: "permission_response",
      agent_id: shown,
      request_id: asked.request_id,
      decision: "allow",
    });
    await control.waitAgent(shown, "turn_end", from);
    const pending = await askForBash(control, waiting, "echo later");

    const context = await openContext({ viewport: PHONE });
    const page = await openRoom(context, daemon.enrollmentUrl);
    await page.goto(`${daemon.url}/?agent=${shown}`);
    await page.locator('[data-testid="exit-code"]', { hasText: "0" }).first().waitFor();
    await page.locator('[data-testid="model-picker"][data-value="mock/chat"]').waitFor();

    // The top bar is one row; with the agent header it takes under a quarter of the screen.
    const topbar = await page.locator(".topbar").boundingBox();
    const header = await page.getByTestId("agent-header").boundingBox();
    expect(topbar?.height ?? 0).toBeLessThanOrEqual(60);
    expect((header?.y ?? 0) + (header?.height ?? 0)).toBeLessThanOrEqual(PHONE.height / 4);
    expect(await smallTargets(page)).toEqual([]);

    // Neither stop button acts on one tap.
    await page.getByTestId("terminate-agent").click();
    await page.getByTestId("terminate-confirm").waitFor();
    expect(await page.getByTestId("kill-agent").count()).toBe(0);
    await page.getByTestId("terminate-confirm-no").click();
    await page.getByTestId("kill-agent").click();
    await page.getByTestId("kill-confirm").waitFor();
    await page.getByTestId("kill-confirm-no").click();
    expect(await agentRow(page, shown).getAttribute("data-runtime-state")).toBe("running");

    for (const scheme of ["dark", "light"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await lowContrast(page, TEXT)).toEqual([]);
      await page.getByTestId("drawer-toggle").click();
      await agentRow(page, waiting).locator('[data-testid="needs-you"][data-kind="waiting"]').waitFor();
      expect(await smallTargets(page)).toEqual([]);
      expect(await lowContrast(page, TEXT)).toEqual([]);
      await agentRow(page, shown).click();
    }
    // Answered, so the daemon stops with no turn waiting on it.
    const end = control.messages.length;
    await control.ok({
      type: "permission_response",
      agent_id: waiting,
      request_id: pending.request_id,
      decision: "deny",
    });
    await control.waitAgent(waiting, "turn_end", end);
  });
});
