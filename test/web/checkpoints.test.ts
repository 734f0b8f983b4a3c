/**
 * Checkpoint markers (issue 24) in a real Chromium against a real daemon, `shard agent` and the
 * mock model: a turn that writes a file gets "1 file changed" with its diff, Undo to here asks,
 * then puts the file back on disk and says so; Undo is disabled while a turn runs; a file the
 * person edited since is named and Cancel leaves it, Overwrite restores it; the Changes view
 * lists the same turns. axe checks the markers, a diff and both questions.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { createWatchedAgent, openAgent } from "./dialogs-page.ts";
import { seriousViolations } from "./support/axe.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { typeAndSend } from "./support/composer-input.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

// One long story on a shared machine: three turns, four restores, an axe run.
setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS * 4);

const llm = useMockLlmServer({ clearQueueBeforeEach: true });
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();
const SCREENSHOTS = join(import.meta.dir, "..", "..", "docs", "screenshots");

type Watcher = { messages: unknown[]; waitAgent(id: string, type: string, from: number): Promise<unknown> };

/** The model writes `path`; the page allows it; resolves once the turn has ended. */
async function writeTurn(page: Page, watcher: Watcher, agentId: string, path: string, content: string) {
  llm().enqueue(
    { steps: [{ tool_call: { name: "write", args: { path, content } } }] },
    { steps: [{ text: `Wrote ${path}.` }] },
  );
  const from = watcher.messages.length;
  await typeAndSend(page, `please write ${path}`);
  const dialog = page.getByTestId("permission-dialog");
  await dialog.waitFor();
  await dialog.getByTestId("permission-choice").first().click();
  await watcher.waitAgent(agentId, "turn_end", from);
}

async function expectAccessible(page: Page, screen: string): Promise<void> {
  expect({ screen, violations: await seriousViolations(page) }).toEqual({ screen, violations: [] });
}

const outcome = (marker: Locator) => marker.getByTestId("checkpoint-outcome");

describe.skipIf(!HAVE_CHROMIUM)("checkpoint markers in Chromium", () => {
  test("a turn's marker shows its diff; Undo to here asks, restores the file, and asks before overwriting the person's edit", async () => {
    const daemon = await startDaemon();
    const file = join(daemon.cwd, "config.json");
    const onDisk = () => readFileSync(file, "utf8");
    writeFileSync(file, '{ "port": 3000 }\n');
    const { agentId, watcher } = await createWatchedAgent(daemon);
    // axe's script is injected into the page: only this context lets it past the CSP.
    const context = await openContext({ viewport: { width: 1200, height: 860 }, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(daemon.enrollmentUrl);
    await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
    await openAgent(page, daemon.url, agentId);

    await writeTurn(page, watcher, agentId, "config.json", '{ "port": 8080 }\n');
    expect(onDisk()).toBe('{ "port": 8080 }\n');
    const first = page.getByTestId("checkpoint-marker").first();
    await first.waitFor();
    expect(await first.getByTestId("checkpoint-count").textContent()).toBe("1 file changed");
    // The marker follows the turn's last message.
    expect(
      await page
        .getByTestId("transcript")
        .getByText("Wrote config.json.")
        .evaluate(
          (el, marker) => !!(el.compareDocumentPosition(marker) & Node.DOCUMENT_POSITION_FOLLOWING),
          await first.elementHandle(),
        ),
    ).toBe(true);

    await first.getByTestId("checkpoint-diff-toggle").click();
    const diffFile = first.locator('[data-testid="checkpoint-file"][data-path="config.json"]');
    await diffFile.waitFor();
    expect(await diffFile.locator('[data-kind="del"] .tx-diff-text').allTextContents()).toEqual([
      '-{ "port": 3000 }',
    ]);
    expect(await diffFile.locator('[data-kind="add"] .tx-diff-text').allTextContents()).toEqual([
      '+{ "port": 8080 }',
    ]);

    // Disabled while a turn runs.
    llm().enqueue({ steps: [{ text: "Thinking…" }, { hold: "busy" }] });
    const from = watcher.messages.length;
    await typeAndSend(page, "think for a while");
    await llm().waitForHold("busy");
    await page.locator('[data-testid="checkpoint-undo"][disabled]').first().waitFor();
    llm().release("busy");
    await watcher.waitAgent(agentId, "turn_end", from);
    await page.locator('[data-testid="checkpoint-undo"]:not([disabled])').first().waitFor();

    // Undo to here asks first; Cancel writes nothing.
    await first.getByTestId("checkpoint-undo").click();
    await first.getByTestId("checkpoint-confirm").waitFor();
    await first.getByTestId("checkpoint-cancel").click();
    await outcome(first).getByText("Not restored; your files are as they were.").waitFor();
    expect(onDisk()).toBe('{ "port": 8080 }\n');

    await first.getByTestId("checkpoint-undo").click();
    await first.getByTestId("checkpoint-confirm-yes").click();
    await outcome(first)
      .getByText("Restored: the files are as they were before this turn (config.json).")
      .waitFor();
    expect(onDisk()).toBe('{ "port": 3000 }\n');

    // A second turn; then the person edits the same file.
    await writeTurn(page, watcher, agentId, "config.json", '{ "port": 9090 }\n');
    await expect(page.getByTestId("checkpoint-marker").count()).resolves.toBeGreaterThanOrEqual(1);
    const second = page.getByTestId("checkpoint-marker").nth(1);
    await second.waitFor();
    expect(await second.getByTestId("checkpoint-count").textContent()).toBe("1 file changed");
    writeFileSync(file, '{ "port": 1234, "mine": true }\n');

    await second.getByTestId("checkpoint-undo").click();
    await second.getByTestId("checkpoint-confirm-yes").click();
    const conflict = second.getByTestId("checkpoint-conflict");
    await conflict.waitFor();
    expect(await conflict.getByTestId("checkpoint-conflicts").locator("li").allTextContents()).toEqual([
      "config.json",
    ]);
    // One axe run sees it all: the first marker's diff and its question, the second's overwrite question.
    await first.getByTestId("checkpoint-undo").click();
    await first.getByTestId("checkpoint-confirm").waitFor();
    await expectAccessible(page, "markers, a diff, both questions");
    await first.getByTestId("checkpoint-cancel").click();
    await second.getByTestId("checkpoint-diff-toggle").click();
    await second.locator('[data-testid="checkpoint-file"][data-path="config.json"]').waitFor();
    await conflict.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, "checkpoints.png") });
    await conflict.getByTestId("checkpoint-cancel").click();
    await outcome(second).getByText("Not restored; your files are as they were.").waitFor();
    expect(onDisk()).toBe('{ "port": 1234, "mine": true }\n');

    await second.getByTestId("checkpoint-undo").click();
    await second.getByTestId("checkpoint-confirm-yes").click();
    await second.getByTestId("checkpoint-overwrite").click();
    await outcome(second)
      .getByText("Restored: the files are as they were before this turn (config.json).")
      .waitFor();
    expect(onDisk()).toBe('{ "port": 3000 }\n');

    // The Changes view lists the same turns, and the restores, newest first.
    await page.getByTestId("changes-toggle").click();
    const turns = page.getByTestId("changes-turns");
    await turns.getByTestId("checkpoint-marker").nth(3).waitFor();
    const counts = await turns.getByTestId("checkpoint-count").allTextContents();
    expect(counts.map((c) => c.replace(/ at [^·]+·/, ":"))).toEqual([
      "Restore: 1 file changed",
      "Turn: 1 file changed",
      "Restore: 1 file changed",
      "Turn: 1 file changed",
    ]);
  });
});
