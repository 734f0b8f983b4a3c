/**
 * The tool cards in a real Chromium when the model server repeats its tool-call ids: the
 * allowed `echo listed` and the denied `rm -rf src` (both `call_0` at the server) are two
 * cards, each with its own outcome, live and after a reload (the cards then come from `sync`).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { repeatedToolIdReplies } from "../support/mock-llm/repeated-tool-ids.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { openAgentPage, turnEnd } from "./support/agent-page.ts";
import { HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { typeAndSend } from "./support/composer-input.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(90_000);
const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

async function answerPermission(page: Page, command: string, choice: "Allow once" | "Deny"): Promise<void> {
  const dialog = page.getByTestId("permission-dialog");
  await dialog.filter({ hasText: command }).waitFor();
  await dialog.getByRole("button", { name: choice }).click();
}

async function expectTwoCards(page: Page): Promise<void> {
  const cards = page.locator('[data-testid="tool-call"][data-tool="bash"]');
  const listed = cards.filter({ hasText: "echo listed" });
  const removed = cards.filter({ hasText: "rm -rf src" });
  await removed.and(page.locator('[data-state="failed"]')).waitFor();
  expect(await cards.count()).toBe(2);
  expect(await listed.getAttribute("data-state")).toBe("done");
  expect(await listed.getByTestId("tool-output").textContent()).toContain("listed");
  const deniedText = (await removed.textContent()) ?? "";
  expect(deniedText).toContain("permission denied");
  expect(await removed.getByTestId("exit-code").count()).toBe(0);
  expect(deniedText.replace("rm -rf src", "")).not.toContain("listed");
}

describe.skipIf(!HAVE_CHROMIUM)("tool cards when the server repeats its tool-call ids", () => {
  test("a denied call's card never shows the output of the earlier call of the same server id", async () => {
    const daemon = await startDaemon();
    llm().enqueue(...repeatedToolIdReplies());
    const agent = await openAgentPage(daemon, await openContext());
    const { page } = agent;
    const from = agent.client.messages.length;
    await typeAndSend(page, "tidy up");
    await answerPermission(page, "echo listed", "Allow once");
    await answerPermission(page, "rm -rf src", "Deny");
    await turnEnd(agent, from);
    await expectTwoCards(page);

    await page.reload();
    await page.locator('[data-testid="transcript-scroll"]').waitFor();
    await expectTwoCards(page);
  });
});
