/**
 * The daemon restarts under an open page: `shard daemon` is killed and a new one started on
 * the same SHARD_HOME and port. The page reconnects by itself (a fresh ticket from the new
 * daemon, the same enrolled cookie), re-attaches, shows the restored transcript once, and
 * streams the next turn.
 */
import { describe, expect, test } from "bun:test";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { typeAndSend } from "./support/composer-input.ts";
import { freePort, useRestartableDaemons } from "./support/restartable-daemon.ts";
import { controlSocket } from "./support/socket-control.ts";

const llm = useMockLlmServer();
const openContext = useChromium();
const startOn = useRestartableDaemons();

function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

describe.skipIf(!HAVE_CHROMIUM)("daemon restart in Chromium", () => {
  test("the page reconnects to the restarted daemon by itself and re-attaches", async () => {
    const home = mockHome(llm().url);
    const port = freePort();
    const first = await startOn(home, port);
    const enrollmentUrl = await first.stdoutLine(/#enroll=/);
    const local = await first.client();
    const created = await local.ok({ type: "agent.create", cwd: tempDir("cwd"), model: "mock/chat" });
    local.close();
    const agentId = created.agent_id as string;

    llm().enqueue({ steps: [{ text: "First answer.", chunks: 3 }] });
    const page = await (await openContext()).newPage();
    // Only watched, never touched: it tells when the page's attach has been answered.
    const socket = await controlSocket(page);
    await page.goto(enrollmentUrl.replace("/#enroll=", `/?agent=${agentId}#enroll=`));
    await socket.received((m) => m.type === "sync" && m.agent_id === agentId);
    await typeAndSend(page, "first");
    const transcript = page.getByTestId("transcript");
    await transcript.locator('[data-testid="message"]', { hasText: "First answer." }).waitFor();

    const beforeRestart = socket.mark();
    first.kill();
    await first.exited;
    await page.locator('[data-testid="connection"][data-state="waiting"]').waitFor();

    const second = await startOn(home, port);
    expect(await second.url()).toBe(`http://127.0.0.1:${port}`);
    // No click, no reload: the backoff brings it back.
    await page.locator('[data-testid="connection"][data-state="open"]').waitFor({ timeout: 40_000 });

    await transcript.locator('[data-testid="message"]', { hasText: "First answer." }).waitFor();
    // The new daemon's sync has reached the page: it is attached there.
    await socket.received((m) => m.type === "sync" && m.agent_id === agentId, beforeRestart);

    llm().enqueue({ steps: [{ text: "Second answer.", chunks: 3 }] });
    await typeAndSend(page, "second");
    await transcript.locator('[data-testid="message"]', { hasText: "Second answer." }).waitFor();
    const shown = (await transcript.textContent()) ?? "";
    expect(occurrences(shown, "First answer.")).toBe(1);
    expect(occurrences(shown, "Second answer.")).toBe(1);
  }, 90_000);
});
