/**
 * Issue 9's positive path in a real Chromium: the printed URL enrolls the browser in one click
 * and connects; a reload stays in (the cookie), the code leaves the address bar, and the same
 * link cannot enroll a second browser. A browser that never enrolled is told how to.
 */
import { describe, expect, test } from "bun:test";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { typeAndSend } from "./support/composer-input.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

describe.skipIf(!HAVE_CHROMIUM)("enroll and connect in Chromium", () => {
  test(
    "the printed URL enrolls, connects, survives a reload, and works only once",
    async () => {
      const daemon = await startDaemon();
      expect(daemon.enrollmentUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#enroll=[A-Za-z0-9_-]+$/);

      const context = await openContext();
      const page = await context.newPage();
      const failed: string[] = [];
      page.on("response", (r) => {
        if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
      });
      await page.goto(daemon.enrollmentUrl);
      await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
      // The page names its icon, and the daemon serves it: no 404 on any load.
      const icon = await page.evaluate(async () => {
        const href = document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href ?? "";
        const r = await fetch(href);
        return { href, status: r.status, type: r.headers.get("content-type") };
      });
      expect(icon).toEqual({ href: `${daemon.url}/favicon.svg`, status: 200, type: "image/svg+xml" });
      expect(failed).toEqual([]);
      // The code is gone from the address bar and history.
      expect(page.url()).toBe(`${daemon.url}/`);

      const cookies = await context.cookies();
      expect(cookies).toHaveLength(1);
      expect(cookies[0]?.httpOnly).toBe(true);
      expect(cookies[0]?.sameSite).toBe("Strict");

      await page.reload();
      await page.locator('[data-testid="connection"][data-state="open"]').waitFor();

      // The same link in another browser: single use, so it is refused and says how to enroll.
      const other = await (await openContext()).newPage();
      await other.goto(daemon.enrollmentUrl);
      await other.locator('[data-testid="not-enrolled"]').waitFor();
      expect(await other.locator('[data-testid="not-enrolled"]').textContent()).toContain(
        "shard auth enroll",
      );
      expect(await other.locator('[data-testid="not-enrolled"]').textContent()).toContain("refused");
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    "a browser that never enrolled sees how to, and cannot open the WebSocket",
    async () => {
      const daemon = await startDaemon();
      const page = await (await openContext()).newPage();
      await page.goto(daemon.url);
      await page.locator('[data-testid="not-enrolled"]').waitFor();
      const status = await page.evaluate(async () => (await fetch("/bootstrap", { method: "POST" })).status);
      expect(status).toBe(401);
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    "an enrolled browser creates an agent, prompts it and sees the streamed answer",
    async () => {
      const daemon = await startDaemon();
      llm().enqueue({ steps: [{ text: "Hello from the mock model, streamed.", chunks: 6 }] });
      const page = await (await openContext()).newPage();
      await page.goto(daemon.enrollmentUrl);
      await page.locator('[data-testid="connection"][data-state="open"]').waitFor();

      await page.getByLabel("working directory").fill(daemon.cwd);
      await page.getByRole("button", { name: "New agent" }).click();
      await page.locator('[data-testid="agent-row"]').first().waitFor();
      await page.locator('[data-testid="transcript"]').waitFor();

      await typeAndSend(page, "say hello");
      await page.getByText("Hello from the mock model, streamed.").waitFor();
      expect(await page.locator('[data-testid="message"][data-role="user"]').textContent()).toContain(
        "say hello",
      );
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
