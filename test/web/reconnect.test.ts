/**
 * Reconnect in a real Chromium against a real daemon, agent and streaming mock model. The
 * WebSocket is cut through Playwright's WebSocket routing (support/socket-control.ts; the page
 * itself has no test hook), and `/bootstrap` is refused while the test does things "while the
 * page is away", so the page stays disconnected exactly as long as the test wants. After the reconnect the transcript and the dialogs are what the daemon holds.
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import type { DaemonClient, Msg } from "../daemon/support/daemon-client.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { typeAndSend } from "./support/composer-input.ts";
import { controlSocket, type SocketControl } from "./support/socket-control.ts";
import { useWebDaemons, type WebDaemon } from "./support/web-daemon.ts";

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

async function openAgentPage(
  daemon: WebDaemon,
  agentId: string,
): Promise<{ page: Page; socket: SocketControl }> {
  const page = await (await openContext()).newPage();
  const socket = await controlSocket(page);
  await page.goto(daemon.enrollmentUrl.replace("/#enroll=", `/?agent=${agentId}#enroll=`));
  await socket.received((m) => m.type === "sync" && m.agent_id === agentId);
  await page.locator('[data-testid="transcript"]').waitFor();
  return { page, socket };
}

/** The daemon's own view of the agent now: a fresh attach answers with its `sync`. */
async function daemonTranscript(
  client: DaemonClient,
  agentId: string,
): Promise<{ texts: string[]; pending: string[] }> {
  const from = client.messages.length;
  await client.ok({ type: "agent.attach", agent_id: agentId, role: "observer" });
  const sync = await client.waitAgent(agentId, "sync", from);
  const messages: Msg[] = sync.live_window.messages;
  return {
    texts: messages.map((m) => messageText(m)),
    pending: sync.pending_requests.map((r: Msg) => r.request_id),
  };
}

function messageText(message: Msg): string {
  return (message.content as Msg[])
    .flatMap((block) => {
      // Text only: a tool's output also shows in its call's card, next to its command.
      if (block.type === "text") return [block.text];
      return [];
    })
    .join("");
}

function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

describe.skipIf(!HAVE_CHROMIUM)("reconnect in Chromium", () => {
  test(
    "a socket cut mid-turn: the transcript after reconnect is exact, the open request shows, the answered one does not",
    async () => {
      const daemon = await startDaemon();
      const other = await daemon.client();
      const agentId = (await other.ok({ type: "agent.create", cwd: daemon.cwd, model: "mock/chat" }))
        .agent_id as string;
      // Another client answers requests while the page is away.
      await other.ok({ type: "agent.attach", agent_id: agentId, role: "interactive" });

      llm().enqueue(
        {
          steps: [
            { text: "Before the drop. ", chunks: 3 },
            { hold: "mid-turn" },
            { text: "Streamed while away.", chunks: 5 },
            { tool_call: { id: "call-one", name: "bash", args: { command: "echo answered-elsewhere" } } },
          ],
        },
        {
          steps: [
            { text: "Asked again.", chunks: 2 },
            { tool_call: { id: "call-two", name: "bash", args: { command: "echo still-open" } } },
          ],
        },
        { steps: [{ text: "All done.", chunks: 2 }] },
      );
      const { page, socket } = await openAgentPage(daemon, agentId);
      await typeAndSend(page, "go");
      await page.locator('[data-testid="streaming-message"]', { hasText: "Before the drop." }).waitFor();
      await llm().waitForHold("mid-turn");

      const letBack = await socket.holdOffReconnect();
      await socket.cut();
      await page.locator('[data-testid="connection"][data-state="waiting"]').waitFor();
      expect(await page.getByTestId("connection-reason").textContent()).toContain("network lost (test)");

      // While the page is away: the text streams on, a request is asked and answered by the other
      // client, then a second request is asked and left open.
      const from = other.messages.length;
      llm().release("mid-turn");
      const first = await other.waitAgent(agentId, "permission_request", from);
      other.send({
        type: "permission_response",
        agent_id: agentId,
        request_id: first.request_id,
        decision: "allow",
      });
      const second = await other.waitAgent(
        agentId,
        "permission_request",
        from,
        (m) => m.request_id !== first.request_id,
      );

      await letBack();
      await page.locator('[data-testid="connection"] button', { hasText: "retry now" }).click();
      await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
      const dialog = page.getByTestId("permission-dialog");
      await dialog.waitFor();
      expect(await dialog.count()).toBe(1);
      expect(await dialog.textContent()).toContain("echo still-open");
      expect(await dialog.textContent()).not.toContain("echo answered-elsewhere");

      const transcript = page.getByTestId("transcript");
      await transcript.getByText("Asked again.").waitFor();
      const shown = (await transcript.textContent()) ?? "";
      expect(occurrences(shown, "Before the drop. Streamed while away.")).toBe(1);
      expect(occurrences(shown, "Streamed while away.")).toBe(1);
      expect(occurrences(shown, "answered-elsewhere\n")).toBe(1); // the tool's output, once
      expect(occurrences(shown, "Asked again.")).toBe(1);

      // Everything the daemon holds is on the page, once (a tool's result is drawn in its call's card).
      const held = await daemonTranscript(other, agentId);
      expect(held.pending).toEqual([second.request_id]);
      const now = (await transcript.textContent()) ?? "";
      for (const text of held.texts.map((t) => t.trim()).filter((t) => t.length > 8)) {
        expect({ text, times: occurrences(now, text) }).toEqual({ text, times: 1 });
      }

      // Still live: answering from the page finishes the turn, streamed once.
      await dialog.locator('[data-testid="permission-choice"].intent-allow').first().click();
      await transcript.getByText("All done.").waitFor();
      await page.getByTestId("permission-dialog").waitFor({ state: "detached" });
      expect(occurrences((await transcript.textContent()) ?? "", "All done.")).toBe(1);
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  test(
    "a revoked browser shows how to enroll and stops trying to reconnect",
    async () => {
      const daemon = await startDaemon();
      const page = await (await openContext()).newPage();
      const bootstraps: number[] = [];
      page.on("response", (response) => {
        if (new URL(response.url()).pathname === "/bootstrap") bootstraps.push(response.status());
      });
      await page.goto(daemon.enrollmentUrl);
      await page.locator('[data-testid="connection"][data-state="open"]').waitFor();

      const local = await daemon.client();
      const browsers = (await local.ok({ type: "auth.list" })).browsers as Msg[];
      expect(browsers).toHaveLength(1);
      const revoked = await local.ok({ type: "auth.revoke", browser_id: browsers[0]?.id });
      expect(revoked.closed_connections).toBe(1);

      await page.getByTestId("not-enrolled").waitFor();
      expect(bootstraps.at(-1)).toBe(401);
      const asked = bootstraps.length;

      // Nothing wakes it again: not the network coming back, not the tab being shown, not time.
      await page.clock.install();
      await page.evaluate(() => {
        window.dispatchEvent(new Event("online"));
        document.dispatchEvent(new Event("visibilitychange"));
      });
      await page.clock.runFor(120_000);
      // A later request's answer is the barrier: any retry would have been sent before it.
      await page.evaluate(async () => (await fetch("/", { cache: "no-store" })).status);
      expect(bootstraps.length).toBe(asked);
      expect(await page.getByTestId("not-enrolled").textContent()).toContain("shard auth enroll");
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
