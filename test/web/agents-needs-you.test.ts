/**
 * Needs-you signals in Chromium: an agent waiting for a permission answer, one that finished a
 * turn nobody was looking at, and one whose runtime failed are marked in the list and counted
 * in the tab title; with notifications allowed each raises one browser notification (never for
 * progress), without permission none is raised. The agents are driven over the unix socket, so
 * the page learns everything from the registry's broadcast events alone.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { tempDir } from "../agent/support/agent-process.ts";
import type { DaemonClient } from "../daemon/support/daemon-client.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { agentRow, openRoom, waitForTitle } from "./support/control-room-page.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

/** Records the title of every Notification the page constructs (the real one is still made). */
async function recordNotifications(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const shown: string[] = [];
    Reflect.set(window, "__notifications", shown);
    const Real = window.Notification;
    window.Notification = class extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        shown.push(title);
      }
    };
  });
}

const notificationsShown = (page: Page): Promise<string[]> =>
  page.evaluate(() => [...(Reflect.get(window, "__notifications") as string[])]);

async function agent(control: DaemonClient, cwd: string, name: string): Promise<string> {
  const id = String((await control.ok({ type: "agent.create", cwd, name })).agent_id);
  await control.ok({ type: "agent.attach", agent_id: id });
  return id;
}

/** Prompts `agentId` into a bash call that asks for permission, then runs until `gate` exists. */
async function askForBash(control: DaemonClient, agentId: string, gate: string) {
  llm().enqueue(
    {
      steps: [
        {
          tool_call: {
            name: "bash",
            args: { command: `while [ ! -f ${gate} ]; do sleep 0.05; done; echo ok` },
          },
        },
      ],
    },
    { steps: [{ text: "All done." }] },
  );
  const from = control.messages.length;
  await control.ok({ type: "prompt", agent_id: agentId, message: "run it" });
  return control.waitAgent(agentId, "permission_request", from);
}

async function runtimePid(cwd: string): Promise<number> {
  const out = await new Response(Bun.spawn(["pgrep", "-f", `agent --cwd ${cwd}`]).stdout).text();
  const pids = out.trim().split("\n").filter(Boolean).map(Number);
  expect(pids).toHaveLength(1);
  return pids[0] ?? 0;
}

describe.skipIf(!HAVE_CHROMIUM)("needs-you signals in Chromium", () => {
  test("waiting, finished and failed are marked, counted in the title and notified once each", async () => {
    const daemon = await startDaemon();
    const control = await daemon.client();
    const worker = await agent(control, daemon.cwd, "worker");
    const otherCwd = tempDir("cwd");
    const fragile = await agent(control, otherCwd, "fragile");
    const watched = await agent(control, tempDir("cwd"), "watched");

    const context = await openContext();
    await context.grantPermissions(["notifications"]);
    await recordNotifications(context);
    const page = await openRoom(context, daemon.enrollmentUrl);
    await page.getByTestId("notifications-toggle").click();
    await page.locator('[data-testid="notifications-toggle"][data-enabled="true"]').waitFor();
    await agentRow(page, watched).click();
    await waitForTitle(page, "Shard");

    // Waiting for a permission answer.
    const gate = join(daemon.cwd, "go");
    const asked = await askForBash(control, worker, gate);
    await agentRow(page, worker).locator('[data-testid="needs-you"][data-kind="waiting"]').waitFor();
    await waitForTitle(page, "(1) Shard");

    // Answered elsewhere: the mark goes, the tool's progress shows but is not news.
    await control.ok({
      type: "permission_response",
      agent_id: worker,
      request_id: asked.request_id,
      decision: "allow",
    });
    await agentRow(page, worker).locator('[data-phase="tool"]', { hasText: "tool: bash" }).waitFor();
    await waitForTitle(page, "Shard");
    expect(await agentRow(page, worker).getByTestId("needs-you").count()).toBe(0);

    // Finished while the user looks at another agent.
    writeFileSync(gate, "");
    await agentRow(page, worker).locator('[data-testid="needs-you"][data-kind="finished"]').waitFor();
    await waitForTitle(page, "(1) Shard");

    // Failed: its runtime dies.
    process.kill(await runtimePid(otherCwd), "SIGKILL");
    await agentRow(page, fragile).locator('[data-testid="needs-you"][data-kind="failed"]').waitFor();
    await waitForTitle(page, "(2) Shard");

    // Looking at them acknowledges them.
    await agentRow(page, worker).click();
    await waitForTitle(page, "(1) Shard");
    await agentRow(page, fragile).click();
    await waitForTitle(page, "Shard");

    expect(await notificationsShown(page)).toEqual([
      "worker is waiting for you",
      "worker finished",
      "fragile failed",
    ]);
    expect(existsSync(gate)).toBe(true);
  });

  test("without the browser's permission no notification is raised; marks and title still work", async () => {
    const daemon = await startDaemon();
    const control = await daemon.client();
    const worker = await agent(control, daemon.cwd, "worker");
    const context = await openContext();
    await recordNotifications(context);
    const page = await openRoom(context, daemon.enrollmentUrl);
    // Asking is refused (headless Chromium denies what was not granted).
    await page.getByTestId("notifications-toggle").click();
    await page.locator('[data-testid="notifications-toggle"][data-enabled="false"]').waitFor();
    expect(await page.evaluate(() => Notification.permission)).not.toBe("granted");

    const gate = join(daemon.cwd, "go");
    const asked = await askForBash(control, worker, gate);
    await agentRow(page, worker).locator('[data-testid="needs-you"][data-kind="waiting"]').waitFor();
    await waitForTitle(page, "(1) Shard");
    await control.ok({
      type: "permission_response",
      agent_id: worker,
      request_id: asked.request_id,
      decision: "allow",
    });
    writeFileSync(gate, "");
    await agentRow(page, worker).locator('[data-testid="needs-you"][data-kind="finished"]').waitFor();
    // The title and the notification decision are made in the same update: by now it is decided.
    await waitForTitle(page, "(1) Shard");
    expect(await notificationsShown(page)).toEqual([]);
  });
});
