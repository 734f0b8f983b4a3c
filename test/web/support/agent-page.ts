/**
 * A browser enrolled on a web daemon, showing one agent that a local client created and is
 * attached to (the local client arranges what a test is not about: prompts, answers).
 */
import type { BrowserContext, Page } from "playwright-core";
import type { DaemonClient } from "../../daemon/support/daemon-client.ts";
import type { WebDaemon } from "./web-daemon.ts";

export interface AgentPage {
  page: Page;
  agentId: string;
  client: DaemonClient;
}

export async function openAgentPage(
  daemon: WebDaemon,
  context: BrowserContext,
  options: { name?: string; cwd?: string } = {},
): Promise<AgentPage> {
  const client = await daemon.client();
  const created = await client.ok({
    type: "agent.create",
    cwd: options.cwd ?? daemon.cwd,
    model: "mock/chat",
    ...(options.name !== undefined ? { name: options.name } : {}),
  });
  const agentId = String(created?.agent_id);
  await client.ok({ type: "agent.attach", agent_id: agentId });
  const page = await context.newPage();
  await page.goto(daemon.enrollmentUrl);
  await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
  await page.goto(`${daemon.url}/?agent=${agentId}`);
  await page.locator('[data-testid="transcript-scroll"]').waitFor();
  return { page, agentId, client };
}

/** Sends a prompt from the local client; resolves once the daemon accepted it. */
export async function prompt(agent: AgentPage, message: string): Promise<void> {
  await agent.client.ok({ type: "prompt", agent_id: agent.agentId, message });
}

/** Resolves at the agent's next `turn_end` after `from` (a message index of the local client). */
export function turnEnd(agent: AgentPage, from: number): Promise<unknown> {
  return agent.client.waitAgent(agent.agentId, "turn_end", from);
}
