/**
 * The sandbox in the web (issue 22), in a real Chromium against a real daemon whose runtimes
 * confine `bash` with bubblewrap (the default mode, workspace-write; the test environment's
 * policy is `ask`): the header says the mode and what it means, a command's permission card and
 * its tool card say it runs sandboxed, a write outside the working directory fails with the
 * sandbox's explanation on the card, a request to leave the sandbox is marked as such, and a
 * machine without bubblewrap says its commands run unconfined.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { tempDir } from "../agent/support/agent-process.ts";
import type { DaemonClient } from "../daemon/support/daemon-client.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { typeAndSend } from "./support/composer-input.ts";
import { openSandboxedAgent } from "./support/sandboxed-agent.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const llm = useMockLlmServer({ clearQueueBeforeEach: true });
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

/** Has the model call bash with `args` (then say `done`) and returns its permission card. */
async function askBash(page: Page, args: Record<string, unknown>, done = "Handled.") {
  llm().enqueue({ steps: [{ tool_call: { name: "bash", args } }] }, { steps: [{ text: done }] });
  await typeAndSend(page, "run it");
  const dialog = page.getByTestId("permission-dialog");
  await dialog.waitFor();
  return dialog;
}

/** Allows the open permission card once (its first choice) and waits for the turn's end. */
async function allowOnce(page: Page, watcher: DaemonClient, agentId: string) {
  const from = watcher.messages.length;
  await page.getByTestId("permission-dialog").getByTestId("permission-choice").first().click();
  await watcher.waitAgent(agentId, "turn_end", from);
}

describe.skipIf(!HAVE_CHROMIUM)("the sandbox in Chromium", () => {
  test("the header shows the agent's sandbox mode and, in its title, what it means and the policy", async () => {
    const daemon = await startDaemon();
    const { page } = await openSandboxedAgent(openContext, daemon, daemon.cwd);
    const badge = page.getByTestId("agent-header").getByTestId("sandbox-badge");
    await badge.waitFor();
    expect(await badge.getAttribute("data-mode")).toBe("workspace-write");
    expect((await badge.textContent())?.trim()).toBe("sandbox: workspace-write");
    const title = (await badge.getAttribute("title")) ?? "";
    expect(title).toContain(`only the working directory (${daemon.cwd}) and a private TMPDIR are writable`);
    expect(title).toContain("secrets and $SHARD_HOME are hidden");
    expect(title).toContain("the network is off");
    expect(title).toContain("Policy ask");
    expect(await page.getByTestId("sandbox-unavailable").count()).toBe(0);
  });

  test("a command's permission card says it runs sandboxed; once allowed its card says it ran sandboxed", async () => {
    const daemon = await startDaemon();
    const { agentId, watcher, page } = await openSandboxedAgent(openContext, daemon, daemon.cwd);
    const dialog = await askBash(page, { command: "echo confined" });
    const mark = dialog.getByTestId("permission-sandbox");
    expect(await mark.textContent()).toBe("Runs sandboxed (workspace-write).");
    expect(await mark.getAttribute("class")).not.toContain("sandbox-escape");

    await allowOnce(page, watcher, agentId);
    const card = page.locator('[data-testid="tool-call"][data-tool="bash"][data-state="done"]');
    await card.getByTestId("tool-sandbox").waitFor();
    expect(await card.getByTestId("tool-sandbox").textContent()).toBe("sandboxed (workspace-write)");
    expect(await card.getByTestId("tool-output").textContent()).toContain("confined");
  });

  test("a write outside the working directory fails and the card shows the sandbox's explanation below a long output", async () => {
    const daemon = await startDaemon();
    // The working directory's parent is writable on the host (the test runs as a user who could
    // write it), so only the sandbox stands between the command and the file.
    const outer = tempDir("sandbox-web");
    const cwd = join(outer, "work");
    mkdirSync(cwd);
    const outside = join(outer, "outside.txt");
    const { agentId, watcher, page } = await openSandboxedAgent(openContext, daemon, cwd);
    // 400 lines first: the card shows the output's first lines only, the explanation still shows.
    await askBash(page, { command: `seq 400; echo escaped > ${outside}` });
    await allowOnce(page, watcher, agentId);

    const card = page.locator('[data-testid="tool-call"][data-tool="bash"][data-state="failed"]');
    await card.waitFor();
    expect(existsSync(outside)).toBe(false);
    expect(await card.getByTestId("tool-sandbox").textContent()).toBe("sandboxed (workspace-write)");
    const note = card.getByTestId("sandbox-note");
    expect(await note.isVisible()).toBe(true);
    expect(await note.textContent()).toContain(
      `This command ran in the workspace-write sandbox: only ${cwd}`,
    );
    expect(await note.textContent()).toContain("unsandboxed: true");
    // The output shows its first lines only; the explanation is shown on its own, not in it.
    const shown = (await card.getByTestId("tool-output").textContent()) ?? "";
    expect(shown.endsWith("\n200")).toBe(true);
    expect(shown).not.toContain("[sandbox]");
  });

  test("a request to run outside the sandbox is marked as one; once allowed its card says not sandboxed", async () => {
    const daemon = await startDaemon();
    const { agentId, watcher, page } = await openSandboxedAgent(openContext, daemon, daemon.cwd);
    const dialog = await askBash(page, { command: "echo unconfined", unsandboxed: true });
    const mark = dialog.getByTestId("permission-sandbox");
    expect(await mark.getAttribute("data-mode")).toBe("off");
    expect(await mark.textContent()).toContain("Runs outside the sandbox");
    expect(await mark.getAttribute("class")).toContain("sandbox-escape");

    await allowOnce(page, watcher, agentId);
    const card = page.locator('[data-testid="tool-call"][data-tool="bash"][data-state="done"]');
    await card.getByTestId("tool-sandbox").waitFor();
    expect(await card.getByTestId("tool-sandbox").textContent()).toBe("not sandboxed");
  });

  test("without bubblewrap the agent view says its commands run unconfined", async () => {
    const daemon = await startDaemon({ env: { SHARD_BWRAP: "none" } });
    const { page } = await openSandboxedAgent(openContext, daemon, daemon.cwd);
    const notice = page.getByTestId("sandbox-unavailable");
    await notice.waitFor();
    expect(await notice.textContent()).toBe(
      "No sandbox on this machine: commands run unconfined (SHARD_BWRAP=none disables bubblewrap)",
    );
    const badge = page.getByTestId("sandbox-badge");
    expect(await badge.getAttribute("data-mode")).toBe("off");
    expect((await badge.textContent())?.trim()).toBe("unsandboxed");
    expect(await badge.getAttribute("title")).toContain(
      "Commands run unconfined, as you (workspace-write was asked for)",
    );
  });
});
