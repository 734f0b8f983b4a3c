/**
 * A daemon restart mid-stream leaves the page exactly as a fresh load would, with no error
 * shown: every picker and the new-agent menus come back (asked once re-attached), a list row
 * that was streaming shows the new daemon's state, a stopped agent keeps its model — and the
 * list, header and transcript read the same as in a browser that loads the page afresh.
 */
import { describe, expect, test } from "bun:test";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { typeAndSend } from "./support/composer-input.ts";
import { agentRow } from "./support/control-room-page.ts";
import { freePort, useRestartableDaemons } from "./support/restartable-daemon.ts";
import { controlSocket } from "./support/socket-control.ts";

const llm = useMockLlmServer();
const openContext = useChromium();
const startOn = useRestartableDaemons();

describe.skipIf(!HAVE_CHROMIUM)("the page after a daemon restart", () => {
  test("shows what a fresh load shows", async () => {
    const home = mockHome(llm().url);
    const port = freePort();
    const first = await startOn(home, port);
    const enrollmentUrl = await first.stdoutLine(/#enroll=/);
    const local = await first.client();
    const agentId = String(
      (await local.ok({ type: "agent.create", cwd: tempDir("cwd"), model: "mock/chat" })).agent_id,
    );
    const stoppedId = String(
      (await local.ok({ type: "agent.create", cwd: tempDir("cwd"), model: "mockant/claude" })).agent_id,
    );
    await local.ok({ type: "agent.kill", agent_id: stoppedId, force: true });
    local.close();

    const page = await (await openContext()).newPage();
    const socket = await controlSocket(page);
    await page.goto(enrollmentUrl.replace("/#enroll=", `/?agent=${agentId}#enroll=`));
    await socket.received((m) => m.type === "sync" && m.agent_id === agentId);
    await page.locator('[data-testid="model-picker"][data-value="mock/chat"]').waitFor();
    await page.getByTestId("create-model").waitFor();

    llm().enqueue({ steps: [{ text: "Half an answer" }, { hold: "restart-mid-stream" }] });
    await typeAndSend(page, "go");
    await agentRow(page, agentId).locator('[data-phase="streaming"]').waitFor();

    first.kill();
    await first.exited;
    llm().release("restart-mid-stream");
    await page.locator('[data-testid="connection"][data-state="waiting"]').waitFor();
    const beforeRestart = socket.mark();
    const second = await startOn(home, port);
    await page.locator('[data-testid="connection"][data-state="open"]').waitFor({ timeout: 40_000 });
    await socket.received((m) => m.type === "sync" && m.agent_id === agentId, beforeRestart);
    // The pickers and the new-agent menus are back (asked once attached to the new daemon).
    await page.locator('[data-testid="model-picker"][data-value="mock/chat"]').waitFor();
    await page.locator('[data-testid="mode-picker"][data-value="build"]').waitFor();
    await page.getByTestId("create-model").waitFor();
    await page.getByTestId("create-mode").waitFor();
    // The row says what the new daemon says, not the last activity heard before (the turn
    // the restart cut off may be marked interrupted: the fresh page below must agree).
    const row = agentRow(page, agentId);
    expect(await row.getByTestId("agent-activity").textContent()).not.toContain("working");
    // A stopped agent still shows its model.
    expect(await agentRow(page, stoppedId).getByTestId("agent-model").textContent()).toBe("mockant/claude");
    // No error is left on the page.
    expect(await page.getByTestId("notice").count()).toBe(0);

    // And it is what a fresh load shows: a new browser enrolled on the new daemon.
    const enroll = await second.client();
    const freshUrl = String((await enroll.ok({ type: "auth.enroll" })).url);
    enroll.close();
    const fresh = await (await openContext()).newPage();
    await fresh.goto(freshUrl.replace("/#enroll=", `/?agent=${agentId}#enroll=`));
    await fresh.locator('[data-testid="model-picker"][data-value="mock/chat"]').waitFor();
    await fresh.getByTestId("create-mode").waitFor();
    for (const part of [".sidebar", '[data-testid="agent-header"]', '[data-testid="transcript"]'])
      expect(await page.locator(part).textContent()).toBe(await fresh.locator(part).textContent());
    expect(await fresh.getByTestId("notice").count()).toBe(0);
  }, 90_000);
});
