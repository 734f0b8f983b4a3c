/**
 * The transcript in a real Chromium against a real daemon, agent and mock LLM: Markdown in
 * assistant text (also while it streams, rebuilding only changed blocks), thinking collapsed
 * once complete, an `edit` drawn as a real diff that is still drawn after a reload (the
 * snapshot's per-call records through `sync`), and a `bash` call with its live output (kept
 * across a reload), exit code, duration and a truncation banner.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { openAgentPage, prompt, turnEnd } from "./support/agent-page.ts";
import { HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(90_000);
const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

/** `SHARD_SCREENSHOTS=1 bun test test/web/transcript.test.ts` refreshes docs/screenshots/transcript.png. */
const SCREENSHOTS = join(import.meta.dir, "..", "..", "docs", "screenshots");

describe.skipIf(!HAVE_CHROMIUM)("transcript in Chromium", () => {
  test("an edit shows as a diff with its path and coloured lines, and still does after a reload", async () => {
    const daemon = await startDaemon();
    writeFileSync(join(daemon.cwd, "greeting.ts"), 'export const greeting = "hello";\nexport const n = 1;\n');
    llm().enqueue(
      {
        steps: [
          { thinking: "The greeting should be friendlier.", chunks: 3 },
          { text: "I'll make the **greeting** friendlier in `greeting.ts`.", chunks: 4 },
          {
            tool_call: {
              name: "edit",
              args: {
                path: "greeting.ts",
                old_string: 'export const greeting = "hello";',
                new_string: 'export const greeting = "hello, world";',
              },
            },
          },
        ],
      },
      {
        steps: [
          {
            text: 'Done. The file now reads:\n\n```ts\nexport const greeting = "hello, world";\n```\n\nSee [the docs](https://example.com/docs).',
            chunks: 5,
          },
        ],
      },
    );
    const agent = await openAgentPage(daemon, await openContext());
    const { page } = agent;
    const from = agent.client.messages.length;
    await prompt(agent, "make the greeting friendlier");

    // The edit asks; the browser answers.
    await page.getByTestId("permission-dialog").getByRole("button", { name: "Allow once" }).click();
    await turnEnd(agent, from);
    await page.locator('[data-testid="message"] a[href="https://example.com/docs"]').waitFor();

    const checkDiff = async () => {
      const diff = page.locator(
        '[data-testid="tool-call"][data-tool="edit"] [data-testid="descriptor-diff"]',
      );
      await diff.waitFor();
      expect(await diff.getByTestId("diff-path").textContent()).toBe("greeting.ts");
      expect(await diff.locator('[data-kind="del"] .tx-diff-text').allTextContents()).toEqual([
        '-export const greeting = "hello";',
      ]);
      expect(await diff.locator('[data-kind="add"] .tx-diff-text').allTextContents()).toEqual([
        '+export const greeting = "hello, world";',
      ]);
      expect(await diff.locator('[data-kind="ctx"] .tx-diff-text').allTextContents()).toEqual([
        " export const n = 1;",
      ]);
      // Coloured: an added line's background is not a removed line's, and neither is transparent.
      const background = (kind: string) =>
        diff
          .locator(`[data-kind="${kind}"]`)
          .first()
          .evaluate((el) => getComputedStyle(el).backgroundColor);
      const [added, removed] = await Promise.all([background("add"), background("del")]);
      expect(added).not.toBe(removed);
      expect(added).not.toBe("rgba(0, 0, 0, 0)");
      expect(await page.locator('[data-tool="edit"]').getAttribute("data-state")).toBe("done");
    };
    await checkDiff();

    // Markdown: emphasis, inline code, a fenced block and a link that opens safely elsewhere.
    const answer = page.locator('[data-testid="message"][data-role="assistant"] [data-testid="markdown"]');
    expect(await answer.locator("strong").first().textContent()).toBe("greeting");
    expect(await answer.locator("code").first().textContent()).toBe("greeting.ts");
    expect(await answer.locator("pre code").textContent()).toBe('export const greeting = "hello, world";');
    const link = answer.locator('a[href="https://example.com/docs"]');
    expect(await link.getAttribute("target")).toBe("_blank");
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer");

    // Thinking is collapsed once its message is complete, and opens on a click.
    const thinking = page.getByTestId("thinking").first();
    expect(await thinking.evaluate((el) => el instanceof HTMLDetailsElement && el.open)).toBe(false);
    await thinking.locator("summary").click();
    expect(await thinking.evaluate((el) => el instanceof HTMLDetailsElement && el.open)).toBe(true);
    expect(await thinking.textContent()).toContain("The greeting should be friendlier.");

    if (process.env.SHARD_SCREENSHOTS) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, "transcript.png") });
    }

    await page.reload();
    await page.locator('[data-testid="transcript-scroll"]').waitFor();
    await checkDiff();
  });

  test("a running bash call shows its live output (after a reload too); its result shows exit code, duration and that it was cut", async () => {
    const daemon = await startDaemon();
    const command = "echo live-line; while [ ! -f go ]; do sleep 0.05; done; seq 1 3000";
    llm().enqueue(
      { steps: [{ tool_call: { name: "bash", args: { command } } }] },
      { steps: [{ text: "ran it" }] },
    );
    const agent = await openAgentPage(daemon, await openContext());
    const { page } = agent;
    const from = agent.client.messages.length;
    await prompt(agent, "count to 3000");
    const request = await agent.client.waitAgent(agent.agentId, "permission_request", from);
    await agent.client.ok({
      type: "permission_response",
      agent_id: agent.agentId,
      request_id: request.request_id,
      choice_id: "allow_once",
    });

    const card = page.locator('[data-testid="tool-call"][data-tool="bash"]');
    await card.locator('[data-testid="tool-live-output"]', { hasText: "live-line" }).waitFor();
    expect(await card.getAttribute("data-state")).toBe("running");
    expect(await card.getByTestId("descriptor-command").textContent()).toContain(command);
    // A reload mid-call: the sync's record of the call brings back its command and live output.
    await page.reload();
    await card.locator('[data-testid="tool-live-output"]', { hasText: "live-line" }).waitFor();
    expect(await card.getByTestId("descriptor-command").textContent()).toContain(command);

    writeFileSync(join(daemon.cwd, "go"), "");
    await turnEnd(agent, from);
    await page.locator('[data-tool="bash"][data-state="done"]').waitFor();
    expect(await card.locator('[data-testid="tool-live-output"]').count()).toBe(0);
    expect(await card.getByTestId("exit-code").textContent()).toBe("exit 0");
    expect(await card.getByTestId("duration").textContent()).toMatch(/^\d+(\.\d+)? (ms|s)$/);
    const truncated = card.getByTestId("truncated");
    expect(await truncated.textContent()).toContain("showing the last 2000 of 3001 lines");
    // The output shows its first lines; the rest is a click away.
    const output = card.getByTestId("tool-output");
    expect((await output.textContent())?.split("\n")[0]).toBe("1001");
    await card.getByRole("button", { name: /Show \d+ more lines/ }).click();
    expect((await output.textContent())?.trimEnd().split("\n").at(-1)).toBe("3000");
  });

  test("a streaming reply is Markdown as it arrives, its finished blocks are kept, and it ends as a whole render", async () => {
    const daemon = await startDaemon();
    llm().enqueue({
      steps: [
        { text: "# Plan\n\nFirst I look.\n\n- read the", chunks: 3 },
        { hold: "list" },
        { text: " file\n- edit it\n\n```sh\nls\n\npwd\n```\n\nThen **done**.", chunks: 5 },
        { hold: "end" },
      ],
    });
    const agent = await openAgentPage(daemon, await openContext());
    const { page } = agent;
    const from = agent.client.messages.length;
    await prompt(agent, "plan it");
    await llm().waitForHold("list");
    const live = page.getByTestId("streaming-message").getByTestId("markdown");
    await live.locator("li", { hasText: "read the" }).waitFor();
    expect(await live.locator("h1").textContent()).toBe("Plan");
    // Mark the nodes of the blocks that are already complete.
    await live.evaluate((root) => {
      for (const el of root.querySelectorAll("h1, p")) el.setAttribute("data-kept", "yes");
    });
    llm().release("list");
    await llm().waitForHold("end");
    await live.locator("strong", { hasText: "done" }).waitFor();
    expect(await live.locator("li").allTextContents()).toEqual(["read the file", "edit it"]);
    expect(await live.locator("h1").getAttribute("data-kept")).toBe("yes");
    expect(await live.locator("p", { hasText: "First I look." }).getAttribute("data-kept")).toBe("yes");
    // The finished fence is highlighted while the reply still streams.
    await live.locator("code.hljs").waitFor();
    // What the stream drew, kept blocks and redrawn tail together, is what a whole render draws.
    const streamed = await live.evaluate((root) => {
      const copy = root.cloneNode(true);
      if (!(copy instanceof Element)) return "";
      for (const el of copy.querySelectorAll("[data-kept]")) el.removeAttribute("data-kept");
      return copy.innerHTML;
    });
    llm().release("end");
    await turnEnd(agent, from);
    const done = page.locator('[data-role="assistant"] [data-testid="markdown"]');
    // The daemon client saw turn_end; the page paints the completed message on its own frame.
    await done.locator("li").nth(1).waitFor();
    expect(await done.locator("li").allTextContents()).toEqual(["read the file", "edit it"]);
    expect(await done.locator("strong").textContent()).toBe("done");
    await done.locator("code.hljs").waitFor();
    expect(await done.innerHTML()).toBe(streamed);
    // Hovering a message shows when it was made (`Message.ts`); the prompt and the reply have one.
    for (const role of ["user", "assistant"]) {
      const title = await page
        .locator(`[data-testid="message"][data-role="${role}"]`)
        .first()
        .getAttribute("title");
      expect(title).toMatch(/\d{1,2}:\d{2}/);
    }
  });
});
