/**
 * Long tool-call arguments are cut like any long text, in Chromium against a real daemon: a
 * `write` of 2 MB shows the start of its content and "Show all" while it streams, in its card
 * and, on request, all of it; a `bash` command of 1 MB shows its start in the permission card
 * and in the transcript; an `edit` that writes a 300 KB line shows the start of that line in its
 * diff, in the permission preview and in the transcript. Each block's text in the DOM stays
 * bounded, and the reply after it shows: the page kept up.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator } from "playwright-core";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { openAgentPage, prompt, turnEnd } from "./support/agent-page.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);
const llm = useMockLlmServer({ clearQueueBeforeEach: true });
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

/** The first view of a cut text holds at most 40,000 characters (web long-text.ts HEAD_CHARS). */
const BOUNDED_CHARS = 50_000;

/** About `size` characters of numbered lines, starting and ending with a marker. */
function longText(size: number, start: string, end: string): string {
  const lines = [start];
  for (let n = 0, length = start.length; length < size; n++) {
    const line = `line ${n}: ${"the quick brown fox jumps over the lazy dog ".repeat(2)}`;
    lines.push(line);
    length += line.length + 1;
  }
  lines.push(end);
  return lines.join("\n");
}

async function textLength(block: Locator): Promise<number> {
  return ((await block.textContent()) ?? "").length;
}

describe.skipIf(!HAVE_CHROMIUM)("long tool-call arguments in Chromium", () => {
  test("a 2 MB write shows the start of its content, cut, while it streams and once done", async () => {
    const daemon = await startDaemon();
    const agent = await openAgentPage(daemon, await openContext());
    const { page } = agent;
    const content = longText(2 * 1024 * 1024, "START-OF-CONTENT", "END-OF-CONTENT");
    llm().enqueue(
      {
        steps: [
          { text: "Writing the file." },
          { tool_call: { name: "write", args: { path: "big.txt", content }, chunks: 16 } },
          { hold: "args-sent" },
        ],
      },
      { steps: [{ text: "Wrote the big file." }] },
    );
    const from = agent.client.messages.length;
    await prompt(agent, "write a big file");

    // While the call streams: its arguments, parsed, show the content's start, cut.
    await llm().waitForHold("args-sent");
    const streaming = page.getByTestId("streaming-message").locator('[data-tool="write"]');
    const streamedArgs = streaming.getByTestId("tool-args");
    await streamedArgs.getByText(/^START-OF-CONTENT\nline 0: /).waitFor();
    expect(await textLength(streaming)).toBeLessThan(BOUNDED_CHARS);
    expect(await streamedArgs.getByTestId("show-all").textContent()).toBe("Show all (2.1 MB more)");
    expect(await streamedArgs.textContent()).not.toContain("END-OF-CONTENT");
    llm().release("args-sent");

    const dialog = page.getByTestId("permission-dialog");
    await dialog.waitFor();
    expect(await textLength(dialog)).toBeLessThan(BOUNDED_CHARS);
    await dialog.getByTestId("permission-choice").first().click();
    await turnEnd(agent, from);
    await page.getByText("Wrote the big file.").waitFor();
    expect(readFileSync(join(daemon.cwd, "big.txt"), "utf8")).toBe(content);

    // Done: the card's arguments (folded under its content preview) are cut too.
    const card = page.locator('[data-testid="message"] [data-tool="write"][data-state="done"]');
    await card.waitFor();
    expect(await textLength(card)).toBeLessThan(BOUNDED_CHARS);
    await card.locator(".tx-args > summary").click();
    const args = card.getByTestId("tool-args");
    const more = args.getByTestId("show-all");
    expect(await more.textContent()).toBe("Show all (2.1 MB more)");
    const start = args.getByText(/^START-OF-CONTENT\nline 0: /);
    expect(await start.isVisible()).toBe(true);

    // All of it on request, drawn as it scrolls into view.
    await more.click();
    const full = args.locator('[data-testid="full-text"][data-complete="true"]');
    await full.waitFor();
    expect(await full.textContent()).toBe(content);
    await args.getByRole("button", { name: "Show less" }).click();
    await full.waitFor({ state: "detached" });
    expect(await textLength(card)).toBeLessThan(BOUNDED_CHARS);
  });

  test("a 1 MB bash command shows its start, cut, in the permission card and in the transcript", async () => {
    const daemon = await startDaemon();
    const agent = await openAgentPage(daemon, await openContext());
    const { page } = agent;
    const command = `echo START-OF-COMMAND; ${"true && ".repeat(128 * 1024)}echo END-OF-COMMAND`;
    llm().enqueue(
      { steps: [{ tool_call: { name: "bash", args: { command } } }] },
      { steps: [{ text: "Ran the long command." }] },
    );
    const from = agent.client.messages.length;
    await prompt(agent, "run a long command");

    const dialog = page.getByTestId("permission-dialog");
    await dialog.waitFor();
    expect(await textLength(dialog)).toBeLessThan(BOUNDED_CHARS);
    const detail = dialog.locator('[data-testid="permission-detail"][data-format="command"]');
    expect(await detail.getByTestId("show-all").textContent()).toBe("Show all (1.0 MB more)");
    expect(await detail.locator("pre").textContent()).toStartWith("echo START-OF-COMMAND; true && ");
    await dialog.getByTestId("permission-choice").first().click();
    await turnEnd(agent, from);
    await page.getByText("Ran the long command.").waitFor();

    const card = page.locator('[data-testid="message"] [data-tool="bash"]');
    const shown = card.getByTestId("descriptor-command");
    await shown.getByTestId("show-all").waitFor();
    expect(await textLength(card)).toBeLessThan(BOUNDED_CHARS);
    expect(await shown.locator("pre").textContent()).toStartWith("$ echo START-OF-COMMAND; true && ");
    expect(await shown.textContent()).not.toContain("END-OF-COMMAND");
  });

  test("an edit that writes a 300 KB line shows the line's start in its diffs", async () => {
    const daemon = await startDaemon();
    writeFileSync(join(daemon.cwd, "min.js"), "var total=1;\n");
    const agent = await openAgentPage(daemon, await openContext());
    const { page } = agent;
    const newLine = `var total=${"1+".repeat(150_000)}1;`;
    llm().enqueue(
      {
        steps: [
          {
            tool_call: {
              name: "edit",
              args: { path: "min.js", old_string: "var total=1;", new_string: newLine },
            },
          },
        ],
      },
      { steps: [{ text: "Edited the minified file." }] },
    );
    const from = agent.client.messages.length;
    await prompt(agent, "make the line long");

    const dialog = page.getByTestId("permission-dialog");
    await dialog.waitFor();
    expect(await textLength(dialog)).toBeLessThan(BOUNDED_CHARS);
    const preview = dialog.getByTestId("permission-preview");
    expect(await preview.locator('[data-kind="add"] .tx-diff-text').textContent()).toStartWith(
      "+var total=1+1+",
    );
    expect(await preview.getByTestId("show-all").textContent()).toBe("Show all (0.3 MB more)");
    await dialog.getByTestId("permission-choice").first().click();
    await turnEnd(agent, from);
    await page.getByText("Edited the minified file.").waitFor();
    expect(readFileSync(join(daemon.cwd, "min.js"), "utf8")).toBe(`${newLine}\n`);

    const card = page.locator('[data-testid="message"] [data-tool="edit"][data-state="done"]');
    await card.waitFor();
    expect(await textLength(card)).toBeLessThan(BOUNDED_CHARS);
    const diff = card.getByTestId("descriptor-diff");
    expect(await diff.locator('[data-kind="add"] .tx-diff-text').textContent()).toStartWith(
      "+var total=1+1+",
    );
    // All of the line on request.
    await diff.getByTestId("show-all").click();
    expect(await diff.locator('[data-kind="add"] .tx-diff-text').textContent()).toBe(`+${newLine}`);
  });
});
