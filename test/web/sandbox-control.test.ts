/**
 * Seeing and changing an agent's sandbox in the web (issue 22, protocol-additions §18), in a real
 * Chromium against a real daemon whose runtimes confine `bash` with bubblewrap (the test
 * environment's policy is `ask`, so every command asks): the agent list says each agent's mode;
 * the header's badge is a menu — a stricter mode applies at once and really confines the next
 * command, a looser one is a question the person answers on its permission card; a machine
 * without bubblewrap offers no choice.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { tempDir } from "../agent/support/agent-process.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { enrolledPage } from "./dialogs-page.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { typeAndSend } from "./support/composer-input.ts";
import { agentRow } from "./support/control-room-page.ts";
import { openSandboxedAgent } from "./support/sandboxed-agent.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const llm = useMockLlmServer({ clearQueueBeforeEach: true });
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

/** The header's badge once it says `mode`. */
async function headerBadge(page: Page, mode: string) {
  const badge = page
    .getByTestId("agent-header")
    .locator(`[data-testid="sandbox-badge"][data-mode="${mode}"]`);
  await badge.waitFor();
  return badge;
}

/** Waits until the header's menu shows `mode` as its choice. */
async function menuShows(page: Page, mode: string): Promise<void> {
  await page.waitForFunction(
    (m) => document.querySelector<HTMLSelectElement>('[data-testid="sandbox-select"]')?.value === m,
    mode,
  );
}

describe.skipIf(!HAVE_CHROMIUM)("changing the sandbox in Chromium", () => {
  test("the agent list shows each agent's sandbox mode; an unsandboxed one stands out", async () => {
    const daemon = await startDaemon();
    const control = await daemon.client();
    const create = async (name: string, sandbox?: "off" | "read-only") =>
      String(
        (
          await control.ok({
            type: "agent.create",
            cwd: daemon.cwd,
            model: "mock/chat",
            name,
            ...(sandbox !== undefined ? { sandbox } : {}),
          })
        ).agent_id,
      );
    const defaulted = await create("defaulted");
    const strict = await create("strict", "read-only");
    const open = await create("open", "off");

    const page = await enrolledPage(openContext, daemon.enrollmentUrl);
    const shown = async (agentId: string) => {
      const chip = agentRow(page, agentId).getByTestId("agent-sandbox");
      await chip.waitFor();
      return { mode: await chip.getAttribute("data-mode"), text: await chip.textContent() };
    };
    expect(await shown(defaulted)).toEqual({ mode: "workspace-write", text: "sandbox: workspace-write" });
    expect(await shown(strict)).toEqual({ mode: "read-only", text: "sandbox: read-only" });
    expect(await shown(open)).toEqual({ mode: "off", text: "unsandboxed" });
    // "unsandboxed" is drawn unlike the others (the warning colour, bold).
    const weight = (agentId: string) =>
      agentRow(page, agentId)
        .getByTestId("agent-sandbox")
        .evaluate((el) => getComputedStyle(el).fontWeight);
    expect(await weight(open)).toBe("600");
    expect(await weight(defaulted)).not.toBe("600");
  });

  test("choosing read-only in the header applies at once: the badge and the list say so and a write in the working directory fails", async () => {
    const daemon = await startDaemon();
    const cwd = join(tempDir("sandbox-control"), "work");
    mkdirSync(cwd);
    const { agentId, watcher, page } = await openSandboxedAgent(openContext, daemon, cwd);
    await headerBadge(page, "workspace-write");
    const menu = page.getByTestId("sandbox-select");
    expect(await menu.getAttribute("aria-label")).toBe("sandbox mode");
    expect(await menu.locator("option").allTextContents()).toEqual([
      "sandbox: workspace-write",
      "sandbox: read-only",
      "unsandboxed",
    ]);

    await menu.selectOption("read-only");
    const badge = await headerBadge(page, "read-only");
    expect((await badge.textContent())?.trim()).toBe("sandbox: read-only");
    await agentRow(page, agentId).locator('[data-testid="agent-sandbox"][data-mode="read-only"]').waitFor();
    // Nothing was asked: a stricter sandbox needs no one's leave.
    expect(await page.getByTestId("permission-dialog").count()).toBe(0);

    const inside = join(cwd, "inside.txt");
    llm().enqueue(
      { steps: [{ tool_call: { name: "bash", args: { command: `echo written > ${inside}` } } }] },
      { steps: [{ text: "Tried." }] },
    );
    await typeAndSend(page, "write it");
    const dialog = page.getByTestId("permission-dialog");
    await dialog.waitFor();
    expect(await dialog.getByTestId("permission-sandbox").textContent()).toBe("Runs sandboxed (read-only).");
    const from = watcher.messages.length;
    await dialog.getByTestId("permission-choice").first().click();
    await watcher.waitAgent(agentId, "turn_end", from);
    const card = page.locator('[data-testid="tool-call"][data-tool="bash"][data-state="failed"]');
    await card.waitFor();
    expect(await card.getByTestId("tool-sandbox").textContent()).toBe("sandboxed (read-only)");
    expect(existsSync(inside)).toBe(false);
  });

  test("choosing off asks first: the permission card, a waiting note, and after allow the badge says unsandboxed", async () => {
    const daemon = await startDaemon();
    const { agentId, watcher, page } = await openSandboxedAgent(openContext, daemon, daemon.cwd);
    await headerBadge(page, "workspace-write");

    await page.getByTestId("sandbox-select").selectOption("off");
    const dialog = page.getByTestId("permission-dialog");
    await dialog.waitFor();
    expect(await dialog.getByTestId("permission-tool").textContent()).toBe("set_sandbox");
    expect(await dialog.locator(".dialog-prompt").textContent()).toBe(
      "Allow loosening the sandbox from workspace-write to off?",
    );
    expect(await dialog.getByTestId("permission-sandbox").textContent()).toContain(
      "Its commands would run outside the sandbox from now on",
    );
    const asked = page.getByTestId("sandbox-asked");
    await asked.filter({ hasText: "asked for off — waiting for an answer" }).waitFor();
    expect(await asked.getAttribute("role")).toBe("status");
    // Not loosened yet: the badge and the menu still say the mode the agent has.
    await menuShows(page, "workspace-write");
    expect(
      await page.getByTestId("agent-header").getByTestId("sandbox-badge").getAttribute("data-mode"),
    ).toBe("workspace-write");

    const from = watcher.messages.length;
    await dialog.getByTestId("permission-choice").first().click();
    await watcher.waitAgent(agentId, "sandbox_changed", from);
    const badge = await headerBadge(page, "off");
    expect((await badge.textContent())?.trim()).toBe("unsandboxed");
    await menuShows(page, "off");
    await agentRow(page, agentId).locator('[data-testid="agent-sandbox"][data-mode="off"]').waitFor();
    // The question is answered: the note goes.
    await page.waitForFunction(
      () => document.querySelector('[data-testid="sandbox-asked"]')?.textContent === "",
    );
    expect(await page.getByTestId("permission-dialog").count()).toBe(0);
  });

  test("without bubblewrap the menu offers only off, disabled, and says why in its title", async () => {
    const daemon = await startDaemon({ env: { SHARD_BWRAP: "none" } });
    const { page } = await openSandboxedAgent(openContext, daemon, daemon.cwd);
    await headerBadge(page, "off");
    const menu = page.getByTestId("sandbox-select");
    expect(await menu.isDisabled()).toBe(true);
    expect(await menu.locator("option").allTextContents()).toEqual(["unsandboxed"]);
    expect(await menu.getAttribute("title")).toBe(
      "No sandbox on this machine: commands run unconfined (SHARD_BWRAP=none disables bubblewrap)",
    );
  });
});
