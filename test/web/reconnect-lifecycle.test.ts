/**
 * The connection's life around a real daemon in Chromium: a request nobody answers, the page
 * waking, the daemon closing a slow client with 1008, and agents detached once nobody looks at
 * them. Time is Playwright's clock (installed before the page loads, so it flows normally until
 * a test jumps it forward); the socket is controlled through support/socket-control.ts.
 */
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { controlSocket, type SocketControl } from "./support/socket-control.ts";
import { useWebDaemons, type WebDaemon } from "./support/web-daemon.ts";

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

async function openRoom(daemon: WebDaemon, search = ""): Promise<{ page: Page; socket: SocketControl }> {
  const page = await (await openContext()).newPage();
  await page.clock.install();
  const socket = await controlSocket(page);
  await page.goto(daemon.enrollmentUrl.replace("/#enroll=", `/${search}#enroll=`));
  await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
  return { page, socket };
}

async function createAgent(daemon: WebDaemon, extra: object = {}): Promise<string> {
  const local = await daemon.client();
  const created = await local.ok({ type: "agent.create", cwd: daemon.cwd, model: "mock/chat", ...extra });
  return created.agent_id as string;
}

describe.skipIf(!HAVE_CHROMIUM)("connection lifecycle in Chromium", () => {
  test("a prompt the daemon never answers times out with a notice, and the silent socket is replaced", async () => {
    const daemon = await startDaemon();
    const agentId = await createAgent(daemon);
    const { page, socket } = await openRoom(daemon, `?agent=${agentId}`);
    await socket.received((m) => m.type === "sync" && m.agent_id === agentId);
    expect(socket.opened()).toBe(1);

    socket.silence();
    const beforeReconnect = socket.mark();
    // Time stands still while the prompt goes out, however slow the machine, so the leap lands
    // 1 s past its deadline: a timer far later than that counts as the page having been away
    // (asleep) and waits one more window for the answer (src/client/request-channel.ts).
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    await page.getByTestId("composer-input").fill("anyone there?");
    await page.getByTestId("composer-input").press("Enter");
    await page.clock.fastForward(31_000);
    await page.locator(".notice", { hasText: "TIMEOUT: prompt:" }).waitFor();
    expect(await page.locator(".notice", { hasText: "TIMEOUT: prompt:" }).textContent()).toContain(
      "reconnecting",
    );
    await page.locator('[data-testid="connection"][data-state="waiting"]').waitFor();
    await page.clock.fastForward(1_500);
    await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
    expect(socket.opened()).toBe(2);
    await socket.received((m) => m.type === "sync" && m.agent_id === agentId, beforeReconnect);
    await page.clock.resume();

    // The new socket works: a prompt is answered and streamed.
    llm().enqueue({ steps: [{ text: "Here again.", chunks: 2 }] });
    await page.getByTestId("composer-input").fill("and now?");
    await page.getByTestId("composer-input").press("Enter");
    await page.clock.fastForward(200);
    await page.getByTestId("transcript").getByText("Here again.").waitFor();
  }, 60_000);

  test("time leaping while an answer is on its way (a laptop waking) times nothing out: the answer is shown on the same socket", async () => {
    const daemon = await startDaemon();
    const agentId = await createAgent(daemon);
    const { page, socket } = await openRoom(daemon, `?agent=${agentId}`);
    await socket.received((m) => m.type === "sync" && m.agent_id === agentId);

    llm().enqueue({ steps: [{ text: "Still here.", chunks: 2 }] });
    const letThrough = socket.holdAnswers();
    await page.getByTestId("composer-input").fill("are you there?");
    await page.getByTestId("composer-input").press("Enter");
    // The prompt is out, so its timeout runs in the page; the daemon's answer waits at the route.
    await socket.sent((m) => m.type === "prompt");
    // Every timer due in these minutes fires at once, long after its deadline: the prompt's too.
    await page.clock.fastForward(6 * 60_000);
    letThrough();
    await page.getByTestId("transcript").getByText("Still here.").waitFor();
    expect(await page.locator(".notice", { hasText: "TIMEOUT" }).count()).toBe(0);
    expect(socket.opened()).toBe(1);
  }, 60_000);

  test("the network coming back or the tab being shown reconnects at once, not after the backoff", async () => {
    const daemon = await startDaemon();
    const { page, socket } = await openRoom(daemon);
    for (const wake of ["online", "visibilitychange"] as const) {
      const letBack = await socket.holdOffReconnect();
      // Time stands still from here: the backoff's timer cannot fire, only the wake-up helps.
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 2_000);
      await socket.cut();
      await page.locator('[data-testid="connection"][data-state="waiting"]').waitFor();
      await letBack();
      const opened = socket.opened();
      await page.evaluate((type) => {
        if (type === "online") window.dispatchEvent(new Event("online"));
        else document.dispatchEvent(new Event("visibilitychange"));
      }, wake);
      await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
      expect(socket.opened()).toBe(opened + 1);
      await page.clock.resume();
    }
  }, 60_000);

  test("the daemon closing a slow client with 1008 shows its reason, and the page re-syncs by itself", async () => {
    const daemon = await startDaemon();
    const agentId = await createAgent(daemon);
    llm().enqueue({ steps: [{ text: "Before the close.", chunks: 2 }] });
    const { page, socket } = await openRoom(daemon, `?agent=${agentId}`);
    await socket.received((m) => m.type === "sync" && m.agent_id === agentId);
    await page.getByTestId("composer-input").fill("hello");
    await page.getByTestId("composer-input").press("Enter");
    await page.getByTestId("transcript").getByText("Before the close.").waitFor();

    const letBack = await socket.holdOffReconnect();
    const beforeClose = socket.mark();
    // The daemon's own close for a client whose outbound buffer overflowed (docs/daemon.md).
    await socket.cut(1008, "outbound buffer over 8388608 bytes; reconnect and agent.attach again");
    await page.locator('[data-testid="connection"][data-state="waiting"]').waitFor();
    expect(await page.getByTestId("connection-reason").textContent()).toContain(
      "the daemon closed the connection: outbound buffer over 8388608 bytes",
    );
    await letBack();
    await page.clock.fastForward(1_500);
    await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
    expect(await page.getByTestId("not-enrolled").count()).toBe(0);
    await socket.received((m) => m.type === "sync" && m.agent_id === agentId, beforeClose);

    llm().enqueue({ steps: [{ text: "After the close.", chunks: 2 }] });
    await page.getByTestId("composer-input").fill("again");
    await page.getByTestId("composer-input").press("Enter");
    await page.clock.fastForward(200);
    await page.getByTestId("transcript").getByText("After the close.").waitFor();
    expect((await page.getByTestId("transcript").textContent())?.split("Before the close.").length).toBe(2);
  }, 60_000);

  test("an agent nobody has looked at for five minutes is detached: its requests go to its headless policy", async () => {
    const daemon = await startDaemon();
    const watchedOnce = await createAgent(daemon, { headless_policy: "deny" });
    const other = await createAgent(daemon);
    const { page, socket } = await openRoom(daemon, `?agent=${watchedOnce}`);
    await socket.received((m) => m.type === "sync" && m.agent_id === watchedOnce);
    await page.locator(`[data-testid="agent-row"][data-agent-id="${other}"]`).click();
    await socket.received((m) => m.type === "sync" && m.agent_id === other);
    // The page still fetches the other agent's catalogs as time leaps: their timeouts, late
    // with it, wait for the answers instead of dropping the socket under the detach.
    await page.clock.fastForward(6 * 60_000);
    // The daemon answered the page's detach: from here on the page is not among its clients.
    await socket.received((m) => m.type === "response" && m.command === "agent.detach" && m.success === true);

    const local = await daemon.client();
    await local.ok({ type: "agent.attach", agent_id: watchedOnce, role: "observer" });
    llm().enqueue(
      { steps: [{ tool_call: { name: "bash", args: { command: "echo hi" } } }] },
      { steps: [{ text: "ok" }] },
    );
    const from = local.messages.length;
    await local.ok({ type: "prompt", agent_id: watchedOnce, message: "run it" });
    // Had the page stayed attached as the interactive client, the request would wait for it.
    const resolved = await local.waitAgent(watchedOnce, "permission_resolved", from);
    expect(resolved.source).toBe("headless");
  }, 60_000);
});
