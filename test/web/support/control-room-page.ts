/**
 * Opening the control room in a browser context: enroll with a one-time link (the daemon's
 * printed one, or a fresh one minted over the unix socket for a second browser) and wait for
 * the connection.
 */
import type { BrowserContext, Page } from "playwright-core";
import type { WebDaemon } from "./web-daemon.ts";

export async function openRoom(context: BrowserContext, enrollmentUrl: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(enrollmentUrl);
  await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
  return page;
}

/** A new single-use enrollment link (`auth.enroll` answers on the unix socket only). */
export async function mintEnrollmentUrl(daemon: WebDaemon): Promise<string> {
  const client = await daemon.client();
  const data = await client.ok({ type: "auth.enroll" });
  return String(data.url);
}

/** The agent row of `agentId` in the list. */
export function agentRow(page: Page, agentId: string) {
  return page.locator(`[data-testid="agent-row"][data-agent-id="${agentId}"]`);
}

/** Waits until the page's tab title is `title`. */
export async function waitForTitle(page: Page, title: string): Promise<void> {
  await page.waitForFunction((t) => document.title === t, title);
}
