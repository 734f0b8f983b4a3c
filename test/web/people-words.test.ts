/**
 * People's words, not protocol words (issue 20, item 4 and 5), in Chromium against a real daemon
 * and `shard agent`: statuses and activity in plain words and for the current tool only, a
 * signature grant described without `[]`, a subagent's completion report drawn as a card naming
 * the child and how it ended, and a workspace refusal without a command name.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { completionReport } from "../../src/daemon/jobs/completion-report.ts";
import { createSession } from "../../src/session/create-session.ts";
import { makeRepo } from "../daemon/workspaces/git-repo.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { createWatchedAgent, enrolledPage, openAgent } from "./dialogs-page.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { typeAndSend } from "./support/composer-input.ts";
import { agentRow, openRoom } from "./support/control-room-page.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const llm = useMockLlmServer({ clearQueueBeforeEach: true });
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

describe.skipIf(!HAVE_CHROMIUM)("people's words in Chromium", () => {
  test("a second permission shows waiting for it alone, in words; a signature grant names its flags in words", async () => {
    const daemon = await startDaemon();
    writeFileSync(join(daemon.cwd, "notes.md"), "old\n");
    const { agentId, watcher } = await createWatchedAgent(daemon);
    const page = await enrolledPage(openContext, daemon.enrollmentUrl);
    await openAgent(page, daemon.url, agentId);
    llm().enqueue(
      {
        steps: [
          { tool_call: { name: "bash", args: { command: "git diff" } } },
          { tool_call: { name: "edit", args: { path: "notes.md", old_string: "old", new_string: "new" } } },
        ],
      },
      { steps: [{ text: "Both handled." }] },
    );
    await typeAndSend(page, "diff, then edit");

    const dialog = page.getByTestId("permission-dialog");
    await dialog.waitFor();
    const labels = await dialog.getByTestId("permission-choice").allTextContents();
    expect(labels.join("\n")).toContain("Always allow `git diff` with no flags, and any other arguments");
    expect(labels.join("\n")).not.toContain("[]");
    expect(await page.getByTestId("agent-status").textContent()).toBe("waiting for permission");
    const first = await dialog.getAttribute("data-request-id");
    const ran = watcher.messages.length;
    await dialog.getByTestId("permission-choice").first().click();

    // Bash ran (its name was the activity's tool); now the edit waits: bash must not linger.
    await watcher.waitAgent(agentId, "tool_result", ran);
    await page.locator(`[data-testid="permission-dialog"]:not([data-request-id="${first}"])`).waitFor();
    const row = agentRow(page, agentId);
    await row.locator('[data-phase="waiting"]').waitFor();
    expect(await row.locator(".phase").textContent()).toBe("waiting");
    const body = (await page.locator("body").textContent()) ?? "";
    expect(body).not.toContain("waiting_for_permission");
    expect(body).not.toMatch(/conn[_-][0-9a-z]/);

    const from = watcher.messages.length;
    await page.getByTestId("permission-dialog").getByTestId("permission-choice").last().click();
    await watcher.waitAgent(agentId, "turn_end", from);
  });

  test("a subagent's completion report is a card naming the child and its outcome, its text folded", async () => {
    const daemon = await startDaemon();
    const store = createSession({ home: daemon.process.home, cwd: daemon.cwd });
    const run = {
      run_id: "run_0123456789abcdef",
      index: 0,
      name: "survey the tests",
      agent_id: "agent_0123456789abcdef",
      alias: "scout",
      task: "look around",
      state: "failed" as const,
      timeout_s: 60,
      error: "the model gave up",
      final_text: "Found **3** flaky tests <img src=x onerror=alert(1)>.",
    };
    const report = completionReport(
      {
        version: 1,
        job_id: "job_0123456789abcdef",
        parent_agent_id: "agent_parent",
        strategy: "parallel",
        launch: { cwd: daemon.cwd },
        runs: [run],
        created_at: 0,
      },
      run,
    );
    store.append({
      type: "message",
      message: { id: "m0", role: "user", content: [{ type: "text", text: report }] },
    });
    store.close();
    const client = await daemon.client();
    const created = await client.ok({
      type: "agent.create",
      cwd: daemon.cwd,
      model: "mock/chat",
      session_id: store.sessionId,
    });
    const agentId = String(created.agent_id);
    const page = await enrolledPage(openContext, daemon.enrollmentUrl);
    await openAgent(page, daemon.url, agentId);

    const card = page.getByTestId("subagent-report");
    await card.waitFor();
    expect(await card.getByTestId("subagent-report-child").textContent()).toBe("scout");
    expect(await card.getByTestId("subagent-report-outcome").textContent()).toBe("failed");
    expect(await card.locator("summary").textContent()).toContain("survey the tests");
    expect(await page.getByTestId("transcript").textContent()).not.toContain("<subagent_report");
    expect(await card.getByText("Found").isVisible()).toBe(false);
    // Opened: the error and the child's reply, its Markdown drawn, its HTML left as text.
    await card.locator("summary").click();
    await card.getByText("the model gave up").waitFor();
    expect(await card.locator("strong", { hasText: "3" }).count()).toBe(1);
    expect(await card.locator("img").count()).toBe(0);
    expect(await card.textContent()).toContain("<img src=x onerror=alert(1)>");
  });

  test("retiring a workspace whose agent still runs says what to do in words", async () => {
    const daemon = await startDaemon();
    const repo = makeRepo();
    const page = await openRoom(await openContext(), daemon.enrollmentUrl);
    await page.getByTestId("workspaces-toggle").click();
    await page.getByLabel("project directory").fill(repo);
    await page.getByLabel("workspace label").fill("busy one");
    await page.getByRole("button", { name: "New workspace" }).click();
    const row = page.getByTestId("workspace-row");
    await row.waitFor();
    await page.getByTestId("transcript").waitFor();

    await row.getByRole("button", { name: "Retire", exact: true }).click();
    const said = page.getByTestId("workspaces-said");
    await said.getByText("terminate it first").waitFor();
    const text = (await said.textContent()) ?? "";
    expect(text).not.toContain("agent.terminate");
    expect(text).not.toContain("(live)");
  });
});
