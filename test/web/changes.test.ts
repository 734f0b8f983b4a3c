/**
 * The Changes view (issue 20 D.16) in a real Chromium against a real daemon, `shard agent` and
 * git: the agent edits a file through the mock model and the view shows that file's diff against
 * the tree the agent started from, then follows a second edit; outside git it says so.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { sh } from "../daemon/workspaces/git-repo.ts";
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

/** The model makes one tool call; the page allows it; resolves once the turn has ended. */
async function toolCallAllowed(
  page: Page,
  watcher: { messages: unknown[]; waitAgent(id: string, type: string, from: number): Promise<unknown> },
  agentId: string,
  name: string,
  args: Record<string, unknown>,
): Promise<void> {
  llm().enqueue({ steps: [{ tool_call: { name, args } }] }, { steps: [{ text: `${name} done.` }] });
  const from = watcher.messages.length;
  await typeAndSend(page, `please ${name}`);
  const dialog = page.getByTestId("permission-dialog");
  await dialog.waitFor();
  await dialog.getByTestId("permission-choice").first().click();
  await watcher.waitAgent(agentId, "turn_end", from);
}

describe.skipIf(!HAVE_CHROMIUM)("the Changes view in Chromium", () => {
  test("an edit through the model shows file by file, and the view follows a second edit", async () => {
    const daemon = await startDaemon();
    const repo = daemon.cwd;
    sh(repo, "init", "-q", "-b", "main");
    writeFileSync(
      join(repo, "server.ts"),
      'import { serve } from "bun";\n\nconst port = 3000;\nserve({ port });\n',
    );
    sh(repo, "add", ".");
    sh(repo, "commit", "-q", "-m", "initial");
    const { agentId, watcher } = await createWatchedAgent(daemon);
    const page = await enrolledPage(openContext, daemon.enrollmentUrl, { width: 1200, height: 860 });
    await openAgent(page, daemon.url, agentId);

    await page.getByTestId("changes-toggle").click();
    const panel = page.getByTestId("changes-panel");
    await panel.getByText("0 files changed since the agent started").waitFor();

    await toolCallAllowed(page, watcher, agentId, "edit", {
      path: "server.ts",
      old_string: "const port = 3000;",
      new_string: "const port = Number(process.env.PORT ?? 8080);",
    });
    const server = panel.locator('[data-testid="changes-file"][data-path="server.ts"]');
    await server.waitFor();
    expect(await server.getByTestId("changes-status").textContent()).toBe("modified");
    expect(await server.locator('[data-kind="del"] .tx-diff-text').allTextContents()).toEqual([
      "-const port = 3000;",
    ]);
    expect(await server.locator('[data-kind="add"] .tx-diff-text').allTextContents()).toEqual([
      "+const port = Number(process.env.PORT ?? 8080);",
    ]);

    // A second edit, a new file: the view asks again when the tool is done.
    await toolCallAllowed(page, watcher, agentId, "write", {
      path: "README.md",
      content: "# Server\n\nSet PORT to choose the port (default 8080).\n",
    });
    const readme = panel.locator('[data-testid="changes-file"][data-path="README.md"]');
    await readme.waitFor();
    expect(await readme.getByTestId("changes-status").textContent()).toBe("added");
    expect(await readme.locator('[data-kind="add"] .tx-diff-text').allTextContents()).toContain(
      "+Set PORT to choose the port (default 8080).",
    );
    await panel.getByText("2 files changed since the agent started").waitFor();
    expect(await panel.getByTestId("changes-file").count()).toBe(2);
    await page.screenshot({ path: join(SCREENSHOTS, "changes.png") });
  });

  test("outside a git repository the view says there is nothing to compare with", async () => {
    const daemon = await startDaemon();
    const { agentId } = await createWatchedAgent(daemon);
    const page = await enrolledPage(openContext, daemon.enrollmentUrl);
    await openAgent(page, daemon.url, agentId);
    await page.getByTestId("changes-toggle").click();
    const none = page.getByTestId("changes-none");
    await none.waitFor();
    expect(await none.textContent()).toContain("was not in a git repository when it started");
    expect(await page.getByTestId("changes-file").count()).toBe(0);
  });
});
