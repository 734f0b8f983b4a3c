/**
 * Set-up shared by the dialog and composer browser tests: an enrolled page (a second browser
 * gets its own code from `auth.enroll` on the unix socket, as `shard auth enroll` does), an
 * agent created over the unix socket, and that agent opened in the page.
 */
import type { BrowserContext, Page } from "playwright-core";
import type { DaemonClient } from "../daemon/support/daemon-client.ts";
import type { WebDaemon } from "./support/web-daemon.ts";

export type OpenContext = (options?: {
  viewport?: { width: number; height: number };
}) => Promise<BrowserContext>;

export const PHONE = { width: 390, height: 844 };

/** A fresh browser enrolled with `enrollmentUrl`, connected. */
export async function enrolledPage(
  openContext: OpenContext,
  enrollmentUrl: string,
  viewport?: { width: number; height: number },
): Promise<Page> {
  const context = await openContext(viewport ? { viewport } : {});
  const page = await context.newPage();
  await page.goto(enrollmentUrl);
  await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
  return page;
}

/** A new one-time enrollment URL, minted over the unix socket (`shard auth enroll`). */
export async function mintEnrollmentUrl(client: DaemonClient): Promise<string> {
  const data = await client.ok({ type: "auth.enroll" });
  if (typeof data?.url !== "string") throw new Error(`auth.enroll answered ${JSON.stringify(data)}`);
  return data.url;
}

/** An agent on the mock model, created over the unix socket; an observer attachment watches it. */
export async function createWatchedAgent(
  daemon: WebDaemon,
): Promise<{ agentId: string; watcher: DaemonClient }> {
  const watcher = await daemon.client();
  const data = await watcher.ok({ type: "agent.create", cwd: daemon.cwd, model: "mock/chat" });
  const agentId = String(data.agent_id);
  // An observer never counts as a responder, so the page is the one that answers.
  await watcher.ok({ type: "agent.attach", agent_id: agentId, role: "observer" });
  return { agentId, watcher };
}

/** Opens the agent in the page and waits for its transcript (the attach's `sync`). */
export async function openAgent(page: Page, daemonUrl: string, agentId: string): Promise<void> {
  await page.goto(`${daemonUrl}/?agent=${agentId}`);
  await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
  await page.locator('[data-testid="composer"]').waitFor();
  await page.locator('[data-testid="composer-blocked"]').waitFor({ state: "detached" });
}
