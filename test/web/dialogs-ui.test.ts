/**
 * UI dialogs raised by the runtime itself: the `ask` tool asks with a `select` (options given)
 * or an `input` (free text) `ui_request` (src/tools/ask.ts). Answered from the page by keyboard,
 * in a real Chromium against a real daemon and agent on the mock LLM; the answer reaches the
 * model as the tool result. Answering in one browser closes the question in the other.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { createWatchedAgent, enrolledPage, mintEnrollmentUrl, openAgent } from "./dialogs-page.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { typeAndSend } from "./support/composer-input.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

/** The model asks `question` (with `options`, a select; without, an input), then says `after`. */
function askTurn(question: string, options: string[] | undefined, after: string): void {
  llm().enqueue(
    { steps: [{ tool_call: { name: "ask", args: options ? { question, options } : { question } } }] },
    { steps: [{ text: after }] },
  );
}

async function prompt(page: Page, text: string): Promise<void> {
  await typeAndSend(page, text);
}

/** The tool result the model got back in its second call. */
function lastToolResult(): string {
  return JSON.stringify(llm().requests.at(-1)?.body.messages.at(-1));
}

describe.skipIf(!HAVE_CHROMIUM)("UI dialogs from the ask tool in Chromium", () => {
  test("select: the options carry digit keys; 2 picks the second and the model gets it", async () => {
    const daemon = await startDaemon();
    const { agentId, watcher } = await createWatchedAgent(daemon);
    const page = await enrolledPage(openContext, daemon.enrollmentUrl);
    await openAgent(page, daemon.url, agentId);
    askTurn("Which colour?", ["red", "blue", "green"], "Blue it is.");
    await prompt(page, "pick a colour");

    const dialog = page.locator('[data-testid="ui-dialog"][data-kind="select"]');
    await dialog.waitFor();
    expect(await dialog.locator("h3").textContent()).toBe("Which colour?");
    expect(await dialog.getByTestId("ui-option").allTextContents()).toEqual(["1red", "2blue", "3green"]);
    // Typed in the composer, "2" is text.
    await page.getByTestId("composer-input").press("2");
    expect(await page.getByTestId("composer-input").inputValue()).toBe("2");
    await page.getByTestId("composer-input").fill("");

    const from = watcher.messages.length;
    await page.getByTestId("composer-input").press("Escape");
    await page.keyboard.press("2");
    const resolved = await watcher.waitAgent(agentId, "ui_resolved", from);
    expect(resolved.value).toBe("blue");
    await page.getByText("Blue it is.").waitFor();
    await dialog.waitFor({ state: "detached" });
    expect(lastToolResult()).toContain("blue");
  });

  test("input: Enter moves into the field, the answer is typed and sent with Enter", async () => {
    const daemon = await startDaemon();
    const { agentId, watcher } = await createWatchedAgent(daemon);
    const page = await enrolledPage(openContext, daemon.enrollmentUrl);
    await openAgent(page, daemon.url, agentId);
    askTurn("What should the file be called?", undefined, "Named it.");
    await prompt(page, "name the file");

    const dialog = page.locator('[data-testid="ui-dialog"][data-kind="input"]');
    await dialog.waitFor();
    // The field never takes focus by itself: the composer keeps it.
    expect(await page.getByTestId("composer-input").evaluate((el) => el === document.activeElement)).toBe(
      true,
    );
    await page.getByTestId("composer-input").press("Escape");
    await page.keyboard.press("Enter");
    const field = dialog.getByTestId("ui-field");
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    // Keys that answer other dialogs are plain text here.
    await page.keyboard.type("notes-y-n-1.md");
    const from = watcher.messages.length;
    await page.keyboard.press("Enter");
    const resolved = await watcher.waitAgent(agentId, "ui_resolved", from);
    expect(resolved.value).toBe("notes-y-n-1.md");
    await page.getByText("Named it.").waitFor();
    expect(lastToolResult()).toContain("notes-y-n-1.md");
  });

  test("Escape on the dialog dismisses it: null goes back and the model is told the user dismissed it", async () => {
    const daemon = await startDaemon();
    const { agentId, watcher } = await createWatchedAgent(daemon);
    const page = await enrolledPage(openContext, daemon.enrollmentUrl);
    await openAgent(page, daemon.url, agentId);
    askTurn("Proceed with the migration?", ["yes", "no"], "Understood, not now.");
    await prompt(page, "migrate");
    const dialog = page.locator('[data-testid="ui-dialog"][data-kind="select"]');
    await dialog.waitFor();

    const from = watcher.messages.length;
    await page.getByTestId("composer-input").press("Escape");
    await page.keyboard.press("Escape");
    const resolved = await watcher.waitAgent(agentId, "ui_resolved", from);
    expect(resolved.value).toBeNull();
    await page.getByText("Understood, not now.").waitFor();
    expect(lastToolResult()).toContain("dismissed");
    // A dismissal does not abort the turn: the model was called again with it, and the turn ends.
    await page.locator('[data-testid="composer"][data-busy="false"]').waitFor();
  });

  test("two browsers: an answer in one closes the question in the other, which shows what was answered", async () => {
    const daemon = await startDaemon();
    const { agentId, watcher } = await createWatchedAgent(daemon);
    const first = await enrolledPage(openContext, daemon.enrollmentUrl);
    const second = await enrolledPage(openContext, await mintEnrollmentUrl(watcher));
    await openAgent(first, daemon.url, agentId);
    await openAgent(second, daemon.url, agentId);
    askTurn("Which branch?", ["main", "develop"], "On develop.");
    await prompt(first, "choose a branch");
    await first.locator('[data-testid="ui-dialog"]').waitFor();
    await second.locator('[data-testid="ui-dialog"]').waitFor();

    await second.getByRole("button", { name: "develop" }).click();
    await first.locator('[data-testid="ui-dialog"]').waitFor({ state: "detached" });
    const line = first.getByTestId("resolved-line");
    await line.waitFor();
    expect(await line.textContent()).toContain("Which branch?: answered from another client — “develop”");
    await first.getByText("On develop.").waitFor();
  });
});
