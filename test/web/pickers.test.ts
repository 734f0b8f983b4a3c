/**
 * Mode, model and reasoning pickers in two Chromium contexts (two enrolled browsers) on one
 * agent: a switch made in one shows in the other from its `*_changed` event; the reasoning
 * picker appears only once the model advertises levels.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { advertises } from "../../web/src/views/pickers/catalogs.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { agentRow, mintEnrollmentUrl, openRoom } from "./support/control-room-page.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

const picked = (page: Page, picker: string, value: string) =>
  page.locator(`[data-testid="${picker}"][data-value="${value}"]`).waitFor();

describe("capability gating", () => {
  test("a picker needs both its catalog and its switch capability", () => {
    expect(advertises(["mode-catalog", "mode-switch"], "modes")).toBe(true);
    expect(advertises(["mode-catalog"], "modes")).toBe(false);
    expect(advertises(["model-catalog", "model-switch"], "reasoning")).toBe(false);
    expect(advertises(["reasoning-catalog", "reasoning-switch"], "reasoning")).toBe(true);
    expect(advertises(undefined, "models")).toBe(false);
  });
});

describe.skipIf(!HAVE_CHROMIUM)("pickers in Chromium", () => {
  test("a mode, model and reasoning switch in one browser shows in the other", async () => {
    const daemon = await startDaemon();
    const control = await daemon.client();
    const agentId = String(
      (await control.ok({ type: "agent.create", cwd: daemon.cwd, model: "mock/chat" })).agent_id,
    );

    const first = await openRoom(await openContext(), daemon.enrollmentUrl);
    const second = await openRoom(await openContext(), await mintEnrollmentUrl(daemon));
    for (const page of [first, second]) {
      await agentRow(page, agentId).click();
      await picked(page, "mode-picker", "build");
      await picked(page, "model-picker", "mock/chat");
      // mock/chat has no reasoning levels.
      expect(await page.getByTestId("reasoning-picker").count()).toBe(0);
    }
    const modes = await first.getByTestId("mode-picker").locator("option").allTextContents();
    expect(modes).toEqual(expect.arrayContaining(["build", "plan"]));

    await first.getByTestId("mode-picker").selectOption("plan");
    await picked(second, "mode-picker", "plan");
    expect(await second.getByTestId("mode-picker").inputValue()).toBe("plan");
    await agentRow(second, agentId).getByTestId("agent-mode").filter({ hasText: "plan" }).waitFor();

    // A model with reasoning levels brings the reasoning picker to both.
    await second.getByTestId("model-picker").selectOption("mockant/claude");
    await picked(first, "model-picker", "mockant/claude");
    expect(await first.getByTestId("model-picker").inputValue()).toBe("mockant/claude");
    for (const page of [first, second]) await picked(page, "reasoning-picker", "medium");
    expect(await first.getByTestId("reasoning-picker").locator("option").allTextContents()).toEqual([
      "Low",
      "Medium",
      "High",
    ]);
    await first.getByTestId("reasoning-picker").selectOption("high");
    await picked(second, "reasoning-picker", "high");
    expect(await second.getByTestId("reasoning-picker").inputValue()).toBe("high");

    // The runtime agrees.
    const listed = await control.ok({ type: "agent.attach", agent_id: agentId });
    expect(listed.info.mode).toBe("plan");
    const levels = await control.ok({ type: "list_reasoning_levels", agent_id: agentId });
    expect(levels).toMatchObject({ model: { id: "mockant/claude" }, active: "high" });
  });
});
