/**
 * A long transcript in Chromium: an agent resumed on a 1,200-message session opens at its last
 * message with only a window of rows in the DOM; scrolling back mounts the oldest; while a
 * reply streams the list stays at the bottom, until the user scrolls up (then it stays put and
 * offers "Latest").
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { createSession } from "../../src/session/create-session.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { type AgentPage, prompt, turnEnd } from "./support/agent-page.ts";
import { HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { useWebDaemons, type WebDaemon } from "./support/web-daemon.ts";

setDefaultTimeout(90_000);
const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

const MESSAGES = 1_200;

/** A session of MESSAGES messages: questions, Markdown answers and now and then a tool call. */
function longSession(daemon: WebDaemon): string {
  const store = createSession({ home: daemon.process.home, cwd: daemon.cwd });
  for (let i = 0; i < MESSAGES; i += 2) {
    store.append({
      type: "message",
      message: { id: `m${i}`, role: "user", content: [{ type: "text", text: `question ${i}` }] },
    });
    const answer = `Answer **${i + 1}**, with a list:\n\n- one\n- two\n\n\`\`\`ts\nconst n = ${i};\n\`\`\``;
    store.append({
      type: "message",
      message: { id: `m${i + 1}`, role: "assistant", content: [{ type: "text", text: answer }] },
    });
  }
  store.close();
  return store.sessionId;
}

async function openResumed(daemon: WebDaemon, sessionId: string): Promise<AgentPage> {
  const client = await daemon.client();
  const created = await client.ok({
    type: "agent.create",
    cwd: daemon.cwd,
    model: "mock/chat",
    session_id: sessionId,
  });
  const agentId = String(created?.agent_id);
  await client.ok({ type: "agent.attach", agent_id: agentId });
  const page = await (await openContext()).newPage();
  await page.goto(daemon.enrollmentUrl);
  await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
  await page.goto(`${daemon.url}/?agent=${agentId}`);
  return { page, agentId, client };
}

/** Whether the element is inside the transcript's visible area. */
function inView(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const scroller = document.querySelector('[data-testid="transcript-scroll"]');
    const element = document.querySelector(sel);
    if (scroller === null || element === null) return false;
    const outer = scroller.getBoundingClientRect();
    const inner = element.getBoundingClientRect();
    return inner.bottom > outer.top && inner.top < outer.bottom;
  }, selector);
}

/** Two animation frames: the scroll handled, the rows it brings in drawn and measured. */
function nextFrames(page: Page): Promise<unknown> {
  return page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/** The id of the topmost message row that is in the transcript's visible area. */
function firstMessageInView(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const scroller = document.querySelector('[data-testid="transcript-scroll"]');
    if (scroller === null) return null;
    const outer = scroller.getBoundingClientRect();
    for (const element of document.querySelectorAll("[data-message-id]")) {
      const inner = element.getBoundingClientRect();
      if (inner.top >= outer.top && inner.bottom > outer.top && inner.top < outer.bottom) {
        return element.getAttribute("data-message-id");
      }
    }
    return null;
  });
}

function atBottom(page: Page): Promise<boolean> {
  return page
    .getByTestId("transcript-scroll")
    .evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 2);
}

describe.skipIf(!HAVE_CHROMIUM)("a long transcript in Chromium", () => {
  test("1,200 messages open at the end with only a window of them in the DOM", async () => {
    const daemon = await startDaemon();
    const { page } = await openResumed(daemon, longSession(daemon));
    const last = `[data-message-id="m${MESSAGES - 1}"]`;
    await page.locator(last).waitFor();
    await page.waitForFunction((sel) => {
      const scroller = document.querySelector('[data-testid="transcript-scroll"]');
      const element = document.querySelector(sel);
      if (scroller === null || element === null) return false;
      return element.getBoundingClientRect().bottom <= scroller.getBoundingClientRect().bottom + 1;
    }, last);
    expect(await atBottom(page)).toBe(true);
    expect(await page.locator(last).locator("strong").textContent()).toBe(String(MESSAGES - 1));
    const mounted = await page.getByTestId("message").count();
    expect(mounted).toBeGreaterThan(3);
    expect(mounted).toBeLessThan(100);

    // Back to the start: the first messages mount, the last ones leave, "Latest" is offered.
    await page.getByTestId("transcript-scroll").evaluate((el) => {
      el.scrollTop = 0;
    });
    await page.locator('[data-message-id="m0"]').waitFor();
    expect(await inView(page, '[data-message-id="m0"]')).toBe(true);
    await page.locator(last).waitFor({ state: "detached" });
    await page.getByTestId("jump-to-latest").click();
    await page.locator(last).waitFor();
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-testid="transcript-scroll"]');
      return el !== null && el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
    });
    expect(await page.getByTestId("jump-to-latest").count()).toBe(0);
  });

  test("a streaming reply keeps the list at the bottom until the user scrolls up", async () => {
    const daemon = await startDaemon();
    const agent = await openResumed(daemon, longSession(daemon));
    const { page } = agent;
    await page.locator(`[data-message-id="m${MESSAGES - 1}"]`).waitFor();
    const paragraph = "A paragraph of the streamed reply that takes some room on the screen. ".repeat(6);
    llm().enqueue({
      steps: [
        { text: `${paragraph}\n\nfirst part\n\n`, chunks: 4 },
        { hold: "middle" },
        { text: `${paragraph}\n\n`.repeat(8), chunks: 8 },
        { hold: "end" },
        { text: "last words", chunks: 2 },
      ],
    });
    const from = agent.client.messages.length;
    await prompt(agent, "stream something long");
    await llm().waitForHold("middle");
    const streaming = page.getByTestId("streaming-message");
    await streaming.getByText("first part").waitFor();
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-testid="transcript-scroll"]');
      return el !== null && el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
    });
    expect(await inView(page, '[data-testid="streaming-message"]')).toBe(true);

    llm().release("middle");
    await llm().waitForHold("end");
    await streaming.getByText(paragraph.trim()).nth(8).waitFor();
    // Still pinned: the growing reply pulled the list along.
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-testid="transcript-scroll"]');
      return el !== null && el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
    });

    // The user scrolls up to read; the rest of the reply must not pull them back down.
    await page.getByTestId("transcript-scroll").evaluate((el) => {
      el.scrollTop -= 3 * el.clientHeight;
    });
    await page.getByTestId("jump-to-latest").waitFor();
    await nextFrames(page);
    const reading = await firstMessageInView(page);
    expect(reading).toMatch(/^m\d+$/);
    llm().release("end");
    await turnEnd(agent, from);
    await streaming.waitFor({ state: "detached" });
    await nextFrames(page);
    expect(await inView(page, `[data-message-id="${reading}"]`)).toBe(true);
    expect(await atBottom(page)).toBe(false);

    await page.getByTestId("jump-to-latest").click();
    const final = page.locator('[data-role="assistant"]', { hasText: "last words" });
    await final.waitFor();
    const finalId = await final.getAttribute("data-message-id");
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-testid="transcript-scroll"]');
      return el !== null && el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
    });
    expect(await inView(page, `[data-message-id="${finalId}"]`)).toBe(true);
  });
});
