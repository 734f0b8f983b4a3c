/**
 * Permission and UI dialogs in a real Chromium against a real daemon, real `shard agent`
 * children and the mock LLM: the dialog shows what the tool wants, a key answers it (never
 * while typing), answering in one browser closes it in the other with a line saying so, and the
 * `ask` tool's questions are answered from the page.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { Msg } from "../daemon/support/daemon-client.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { createWatchedAgent, enrolledPage, mintEnrollmentUrl, openAgent, PHONE } from "./dialogs-page.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { typeAndSend } from "./support/composer-input.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();
const SCREENSHOTS = join(import.meta.dir, "..", "..", "docs", "screenshots");

/** The model runs `command` with bash (which asks), then says `after`. */
function bashTurn(command: string, after: string): void {
  llm().enqueue(
    { steps: [{ tool_call: { name: "bash", args: { command } } }] },
    { steps: [{ text: after }] },
  );
}

describe.skipIf(!HAVE_CHROMIUM)("permission dialogs in Chromium", () => {
  test("a bash permission shows its details, ignores keys typed in the composer, and is answered by its key", async () => {
    const daemon = await startDaemon();
    const { agentId, watcher } = await createWatchedAgent(daemon);
    const page = await enrolledPage(openContext, daemon.enrollmentUrl);
    await openAgent(page, daemon.url, agentId);

    bashTurn("echo permitted-by-key", "The command ran.");
    const input = page.getByTestId("composer-input");
    await input.fill("run it");
    await input.press("Enter");

    const dialog = page.getByTestId("permission-dialog");
    await dialog.waitFor();
    expect(await dialog.getByTestId("permission-tool").textContent()).toBe("bash");
    const details = await dialog.getByTestId("permission-detail").allTextContents();
    expect(details[0]).toContain("Command");
    expect(details[0]).toContain("echo permitted-by-key");
    expect(details[1]).toContain("Working directory");
    expect(details[1]).toContain(daemon.cwd);
    // Every choice shows its key: y allow once, a always, n deny (the server sent none).
    const choices = await dialog.getByTestId("permission-choice").allTextContents();
    expect(choices[0]).toBe("yAllow once");
    expect(choices[1]).toBe("aAlways allow this exact command");
    expect(choices.at(-1)).toBe("nDeny");
    await page.screenshot({ path: join(SCREENSHOTS, "permission.png") });

    // Focus is still in the composer: "y" is text there, not an answer.
    await input.press("y");
    expect(await input.inputValue()).toBe("y");
    expect(await dialog.getByTestId("permission-choice").first().isEnabled()).toBe(true);
    await input.fill("");

    // Escape leaves the composer for the dialog (it does not abort); then "y" answers.
    const from = watcher.messages.length;
    await input.press("Escape");
    expect(await dialog.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press("y");
    const resolved = await watcher.waitAgent(agentId, "permission_resolved", from);
    expect(resolved.choice_id).toBe("allow_once");
    expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByText("The command ran.").waitFor();
    await page.getByText("permitted-by-key", { exact: true }).waitFor();
    await dialog.waitFor({ state: "detached" });
    // This page answered it: no "answered elsewhere" line.
    expect(await page.getByTestId("resolved-line").count()).toBe(0);
  });

  test("two browsers on one agent: answering on the phone closes the dialog on the desktop, which says so", async () => {
    const daemon = await startDaemon();
    const { agentId, watcher } = await createWatchedAgent(daemon);
    const desktop = await enrolledPage(openContext, daemon.enrollmentUrl);
    const phone = await enrolledPage(openContext, await mintEnrollmentUrl(watcher), PHONE);
    await openAgent(desktop, daemon.url, agentId);
    await openAgent(phone, daemon.url, agentId);

    bashTurn("echo answered-on-the-phone", "Ran after the phone said yes.");
    await typeAndSend(desktop, "run it");
    await desktop.getByTestId("permission-dialog").waitFor();
    const onPhone = phone.getByTestId("permission-dialog");
    await onPhone.waitFor();

    // The phone shows the whole dialog inside its viewport, with buttons large enough to tap.
    const box = await onPhone.boundingBox();
    expect(box).not.toBeNull();
    if (box !== null) {
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
    }
    const allow = onPhone.getByRole("button", { name: "Always allow this exact command" });
    const allowBox = await allow.boundingBox();
    expect(allowBox?.height ?? 0).toBeGreaterThanOrEqual(44);
    await phone.screenshot({ path: join(SCREENSHOTS, "permission-phone.png") });

    const from = watcher.messages.length;
    await allow.click();
    const resolved = await watcher.waitAgent(agentId, "permission_resolved", from);
    expect(resolved.choice_id).toBe("allow_always_exact");

    await desktop.getByTestId("permission-dialog").waitFor({ state: "detached" });
    const line = desktop.getByTestId("resolved-line");
    await line.waitFor();
    const text = (await line.textContent()) ?? "";
    // Named by the answering browser's enrolled label, never by a connection id.
    const label = await phone.evaluate(() => navigator.platform || "browser");
    expect(String(resolved.source)).toStartWith(`browser:${label} · `);
    expect(text).toContain(`bash: answered in another browser (${label} · `);
    expect(text).not.toMatch(/conn[_-]/);
    expect(text).toContain("Always allow this exact command");
    await desktop.getByText("Ran after the phone said yes.").waitFor();
    // The phone answered itself: it has no such line.
    await phone.getByTestId("permission-dialog").waitFor({ state: "detached" });
    expect(await phone.getByTestId("resolved-line").count()).toBe(0);
  });

  test("two permissions in one turn: only the first is active; after answering, keys are text again until Esc", async () => {
    const daemon = await startDaemon();
    const { agentId, watcher } = await createWatchedAgent(daemon);
    const page = await enrolledPage(openContext, daemon.enrollmentUrl);
    await openAgent(page, daemon.url, agentId);
    llm().enqueue(
      {
        steps: [
          { tool_call: { name: "bash", args: { command: "echo first" } } },
          { tool_call: { name: "bash", args: { command: "echo second" } } },
        ],
      },
      { steps: [{ text: "Both answered." }] },
    );
    await typeAndSend(page, "run both");
    const first = page.locator('[data-testid="permission-dialog"][data-active="true"]');
    await first.waitFor();
    expect(await first.textContent()).toContain("echo first");

    const from = watcher.messages.length;
    await page.getByTestId("composer-input").press("Escape");
    await page.keyboard.press("n");
    const denied = await watcher.waitAgent(agentId, "permission_resolved", from);
    expect(denied.choice_id).toBe("deny");
    // The caret went back to the composer: the next key is text, not an answer to the second.
    await page.keyboard.press("y");
    expect(await page.getByTestId("composer-input").inputValue()).toBe("y");
    await page.getByTestId("composer-input").fill("");
    await page.getByTestId("composer-input").press("Escape");
    const second = page.locator('[data-testid="permission-dialog"][data-active="true"]');
    await page.waitForFunction(() =>
      document
        .querySelector('[data-testid="permission-dialog"][data-active="true"]')
        ?.textContent?.includes("echo second"),
    );
    await page.keyboard.press("y");
    const allowed = await watcher.waitAgent(
      agentId,
      "permission_resolved",
      from,
      (m: Msg) => m.request_id !== denied.request_id,
    );
    expect(allowed.choice_id).toBe("allow_once");
    await page.getByText("Both answered.").waitFor();
    await second.waitFor({ state: "detached" });
  });
});
