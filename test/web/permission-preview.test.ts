/**
 * See the change before you approve it (issue 20 A.3), in a real Chromium against a real daemon
 * and `shard agent`: an `edit` permission shows the diff it would make, a `write` over a file its
 * diff against it, and a new file its content; nothing is written until the answer.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { createWatchedAgent, enrolledPage, openAgent } from "./dialogs-page.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { typeAndSend } from "./support/composer-input.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const llm = useMockLlmServer({ clearQueueBeforeEach: true });
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();
const SCREENSHOTS = join(import.meta.dir, "..", "..", "docs", "screenshots");

/** Asks for one tool call from the page and returns the permission dialog once it shows. */
async function ask(page: Page, name: string, args: Record<string, unknown>) {
  llm().enqueue({ steps: [{ tool_call: { name, args } }] }, { steps: [{ text: `${name} handled.` }] });
  await typeAndSend(page, `please ${name}`);
  const dialog = page.getByTestId("permission-dialog");
  await dialog.waitFor();
  return dialog;
}

describe.skipIf(!HAVE_CHROMIUM)("permission previews in Chromium", () => {
  test("an edit permission shows the diff it would make; the file changes only once allowed", async () => {
    const daemon = await startDaemon();
    const file = join(daemon.cwd, "server.ts");
    writeFileSync(file, 'import { serve } from "bun";\n\nconst port = 3000;\nserve({ port });\n');
    const { agentId, watcher } = await createWatchedAgent(daemon);
    const page = await enrolledPage(openContext, daemon.enrollmentUrl);
    await openAgent(page, daemon.url, agentId);

    const dialog = await ask(page, "edit", {
      path: "server.ts",
      old_string: "const port = 3000;",
      new_string: "const port = Number(process.env.PORT ?? 8080);",
    });
    const preview = dialog.getByTestId("permission-preview");
    expect(await preview.getByTestId("diff-path").textContent()).toBe("server.ts");
    const removed = await preview.locator('[data-kind="del"] .tx-diff-text').allTextContents();
    const added = await preview.locator('[data-kind="add"] .tx-diff-text').allTextContents();
    expect(removed).toEqual(["-const port = 3000;"]);
    expect(added).toEqual(["+const port = Number(process.env.PORT ?? 8080);"]);
    expect(readFileSync(file, "utf8")).toContain("3000");
    await page.screenshot({ path: join(SCREENSHOTS, "permission-edit-diff.png") });

    const from = watcher.messages.length;
    await dialog.getByTestId("permission-choice").first().click();
    await watcher.waitAgent(agentId, "turn_end", from);
    expect(readFileSync(file, "utf8")).toContain("8080");
  });

  test("a write over a file shows its diff against it; a new file shows its content", async () => {
    const daemon = await startDaemon();
    writeFileSync(join(daemon.cwd, "notes.md"), "# Notes\nold line\n");
    const { agentId, watcher } = await createWatchedAgent(daemon);
    const page = await enrolledPage(openContext, daemon.enrollmentUrl);
    await openAgent(page, daemon.url, agentId);

    const over = await ask(page, "write", { path: "notes.md", content: "# Notes\nnew line\n" });
    const preview = over.getByTestId("permission-preview");
    expect(await preview.locator('[data-kind="del"] .tx-diff-text').allTextContents()).toEqual(["-old line"]);
    expect(await preview.locator('[data-kind="add"] .tx-diff-text').allTextContents()).toEqual(["+new line"]);
    const from = watcher.messages.length;
    await over.getByTestId("permission-choice").last().click();
    await watcher.waitAgent(agentId, "turn_end", from);
    await over.waitFor({ state: "detached" });

    const fresh = await ask(page, "write", { path: "hello.txt", content: "hello from the model\n" });
    expect(await fresh.getByTestId("permission-preview").textContent()).toContain("hello from the model");
    const denied = watcher.messages.length;
    await fresh.getByTestId("permission-choice").last().click();
    await watcher.waitAgent(agentId, "turn_end", denied);
  });
});
