/**
 * The composer in a real Chromium against a real daemon and agent on the mock LLM: steer and
 * follow-up sent mid-turn land where docs/protocol.md §6 says, Escape aborts a held turn, pasted
 * and dropped images reach the model request (and the bounds are enforced with a clear error), and
 * sending is off with a reason while the daemon is gone.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { createWatchedAgent, enrolledPage, openAgent } from "./dialogs-page.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { typeAndSend } from "./support/composer-input.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

/** 1×1 PNGs, one red and one blue. */
const RED_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const BLUE_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** The text of every request body the model got, from `from` on. */
const bodies = (from = 0) =>
  llm()
    .requests.slice(from)
    .map((r) => JSON.stringify(r.body));

async function sendAndWaitAccepted(page: Page, text: string): Promise<void> {
  await typeAndSend(page, text);
  // The composer clears only once the daemon accepted the message: the barrier for what follows.
  await page.waitForFunction(
    () =>
      (document.querySelector('[data-testid="composer-input"]') as HTMLTextAreaElement | null)?.value === "",
  );
}

/** Pastes (or drops) files into the composer as the browser would hand them over. */
async function handOver(
  page: Page,
  how: "paste" | "drop",
  files: { name: string; type: string; base64?: string; bytes?: number }[],
): Promise<void> {
  await page.evaluate(
    ({ how, files }) => {
      const transfer = new DataTransfer();
      for (const f of files) {
        const body =
          f.base64 !== undefined
            ? Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))
            : new Uint8Array(f.bytes ?? 0);
        transfer.items.add(new File([body], f.name, { type: f.type }));
      }
      const input = document.querySelector('[data-testid="composer-input"]');
      if (input === null) throw new Error("no composer");
      const event =
        how === "paste"
          ? new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true })
          : new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true });
      input.dispatchEvent(event);
    },
    { how, files },
  );
}

describe.skipIf(!HAVE_CHROMIUM)("composer in Chromium", () => {
  test("mid-turn: a steer reaches the next model call of the running turn, a follow-up waits for the next turn", async () => {
    const daemon = await startDaemon();
    const { agentId, watcher } = await createWatchedAgent(daemon);
    const page = await enrolledPage(openContext, daemon.enrollmentUrl);
    await openAgent(page, daemon.url, agentId);
    llm().enqueue(
      { steps: [{ text: "Looking around." }, { hold: "mid-turn" }, { tool_call: { name: "ls", args: {} } }] },
      { steps: [{ text: "Steered answer." }] },
      { steps: [{ text: "Follow-up answer." }] },
    );
    const before = llm().requests.length;
    await sendAndWaitAccepted(page, "start working");
    await llm().waitForHold("mid-turn");
    await page.locator('[data-testid="composer"][data-busy="true"]').waitFor();

    // Steer is the default while a turn runs, and the send button says so.
    expect(await page.getByTestId("delivery-steer").isChecked()).toBe(true);
    expect(await page.getByTestId("send").textContent()).toContain("Steer");
    await sendAndWaitAccepted(page, "steer-into-the-turn");

    // Alt+F picks follow-up from the keyboard.
    await page.getByTestId("composer-input").press("Alt+f");
    expect(await page.getByTestId("delivery-follow_up").isChecked()).toBe(true);
    expect(await page.getByTestId("send").textContent()).toContain("Queue follow-up");
    await sendAndWaitAccepted(page, "follow-up-after-the-turn");

    const from = watcher.messages.length;
    llm().release("mid-turn");
    await page.getByText("Follow-up answer.").waitFor();
    await watcher.waitAgent(agentId, "turn_end", from, () => llm().requests.length - before >= 3);
    const [first, second, third] = bodies(before);
    expect(first).toContain("start working");
    expect(first).not.toContain("steer-into-the-turn");
    // The steer joined the running turn's next model call (after the ls result); the follow-up did not.
    expect(second).toContain("steer-into-the-turn");
    expect(second).not.toContain("follow-up-after-the-turn");
    expect(third).toContain("follow-up-after-the-turn");
  });

  test("Escape in the composer aborts a held turn (and says its queued follow-up was dropped); the Abort button is there while it runs", async () => {
    const daemon = await startDaemon();
    const { agentId, watcher } = await createWatchedAgent(daemon);
    const page = await enrolledPage(openContext, daemon.enrollmentUrl);
    await openAgent(page, daemon.url, agentId);
    llm().enqueue({
      steps: [{ text: "Starting a long answer" }, { hold: "never-released" }, { text: " the end." }],
    });
    await sendAndWaitAccepted(page, "write a long answer");
    await llm().waitForHold("never-released");
    await page.locator('[data-testid="composer"][data-busy="true"]').waitFor();
    await page.getByTestId("abort").waitFor();
    await page.getByTestId("composer-input").press("Alt+f");
    await sendAndWaitAccepted(page, "a follow-up the abort drops");

    const from = watcher.messages.length;
    await page.getByTestId("composer-input").press("Escape");
    await watcher.waitAgent(agentId, "turn_end", from);
    await page.locator(".notice", { hasText: "1 queued message was dropped" }).waitFor();
    await page.locator('[data-testid="composer"][data-busy="false"]').waitFor();
    expect(await page.getByTestId("abort").count()).toBe(0);
    expect(await page.getByTestId("send").textContent()).toContain("Send");
    llm().release("never-released");
  });

  test("pasted and dropped images show as thumbnails, can be removed, are bounded, and reach the model", async () => {
    const daemon = await startDaemon();
    const { agentId } = await createWatchedAgent(daemon);
    const page = await enrolledPage(openContext, daemon.enrollmentUrl);
    await openAgent(page, daemon.url, agentId);

    await handOver(page, "paste", [{ name: "image.png", type: "image/png", base64: RED_PNG }]);
    await handOver(page, "drop", [{ name: "blue.png", type: "image/png", base64: BLUE_PNG }]);
    await page.locator('[data-testid="attachment"]').nth(1).waitFor();
    expect(await page.getByTestId("attachment").count()).toBe(2);
    await page.getByRole("button", { name: "remove blue.png" }).click();
    expect(await page.getByTestId("attachment").count()).toBe(1);

    // Too large, and not a raster image: refused with a code and what to do; nothing attached.
    await handOver(page, "drop", [{ name: "huge.png", type: "image/png", bytes: 6 * 1024 * 1024 }]);
    const error = page.getByTestId("attach-error");
    await error.waitFor();
    expect(await error.getAttribute("data-code")).toBe("IMAGE_TOO_LARGE");
    expect(await error.textContent()).toContain("“huge.png” is 6.0 MB; an image may be at most 5.0 MB");
    await handOver(page, "drop", [{ name: "drawing.svg", type: "image/svg+xml", bytes: 100 }]);
    await page.locator('[data-testid="attach-error"][data-code="IMAGE_TYPE"]').waitFor();
    expect(await page.getByTestId("attachment").count()).toBe(1);

    llm().enqueue({ steps: [{ text: "A red pixel." }] });
    const before = llm().requests.length;
    await sendAndWaitAccepted(page, "what is in this picture?");
    await page.getByText("A red pixel.").waitFor();
    expect(await page.getByTestId("attachment").count()).toBe(0);
    const [request] = bodies(before);
    expect(request).toContain("what is in this picture?");
    expect(request).toContain(RED_PNG);
    expect(request).not.toContain(BLUE_PNG);
  });

  test("with the daemon gone, sending is off and the composer says why; the text is kept", async () => {
    const daemon = await startDaemon();
    const { agentId } = await createWatchedAgent(daemon);
    const page = await enrolledPage(openContext, daemon.enrollmentUrl);
    await openAgent(page, daemon.url, agentId);
    await page.getByTestId("composer-input").fill("an unsent thought");
    expect(await page.getByTestId("send").isEnabled()).toBe(true);

    await daemon.process.stop();
    const blocked = page.getByTestId("composer-blocked");
    await blocked.waitFor();
    expect(await blocked.textContent()).toContain("Not connected to the daemon");
    expect(await page.getByTestId("send").isDisabled()).toBe(true);
    await page.getByTestId("composer-input").press("Enter");
    expect(await page.getByTestId("composer-input").inputValue()).toBe("an unsent thought");
  });

  test("each agent keeps its own draft: switching agents never carries a message to another one", async () => {
    const daemon = await startDaemon();
    const { agentId: first } = await createWatchedAgent(daemon);
    const { agentId: second } = await createWatchedAgent(daemon);
    const page = await enrolledPage(openContext, daemon.enrollmentUrl);
    await openAgent(page, daemon.url, first);
    const input = page.getByTestId("composer-input");
    await input.fill("for the first agent only");
    await handOver(page, "paste", [{ name: "image.png", type: "image/png", base64: RED_PNG }]);
    await page.getByTestId("attachment").waitFor();

    await page.locator(`[data-testid="agent-row"][data-agent-id="${second}"]`).click();

    await page.locator(`[data-testid="agent-row"][data-agent-id="${second}"][aria-current="true"]`).waitFor();
    expect(await input.inputValue()).toBe("");
    expect(await page.getByTestId("attachment").count()).toBe(0);

    await page.locator(`[data-testid="agent-row"][data-agent-id="${first}"]`).click();
    await page.locator(`[data-testid="agent-row"][data-agent-id="${first}"][aria-current="true"]`).waitFor();
    expect(await input.inputValue()).toBe("for the first agent only");
    expect(await page.getByTestId("attachment").count()).toBe(1);
  });
});
