/** The sandbox browser tests' set-up: an agent on the mock model, open in an enrolled page. */
import type { Page } from "playwright-core";
import type { DaemonClient } from "../../daemon/support/daemon-client.ts";
import { enrolledPage, type OpenContext, openAgent } from "../dialogs-page.ts";
import type { WebDaemon } from "./web-daemon.ts";

/** An agent in `cwd`, watched by an observer (which never answers: the page does), open in a page. */
export async function openSandboxedAgent(
  openContext: OpenContext,
  daemon: WebDaemon,
  cwd: string,
): Promise<{ agentId: string; watcher: DaemonClient; page: Page }> {
  const watcher = await daemon.client();
  const data = await watcher.ok({ type: "agent.create", cwd, model: "mock/chat" });
  const agentId = String(data.agent_id);
  await watcher.ok({ type: "agent.attach", agent_id: agentId, role: "observer" });
  const page = await enrolledPage(openContext, daemon.enrollmentUrl);
  await openAgent(page, daemon.url, agentId);
  return { agentId, watcher, page };
}
