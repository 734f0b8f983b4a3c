/**
 * A subagent's permission question reaches the browser that has only its parent open (the
 * daemon routes it to the nearest interactive ancestor, docs/architecture.md §5.4): the dialog says
 * which subagent asks, answering it lets the child's run finish, and the dialog closes.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { createWatchedAgent, enrolledPage, openAgent } from "./dialogs-page.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

describe.skipIf(!HAVE_CHROMIUM)("a subagent's question in its parent's view", () => {
  test("shows who asks, is answered from the parent's page, and the child's run completes", async () => {
    const daemon = await startDaemon();
    const { agentId: parent, watcher } = await createWatchedAgent(daemon);
    const page = await enrolledPage(openContext, daemon.enrollmentUrl);
    await openAgent(page, daemon.url, parent);

    llm().enqueue(
      {
        when: "TASK-DELEGATED",
        steps: [{ tool_call: { name: "bash", args: { command: "echo from-the-child" } } }],
      },
      { when: "TASK-DELEGATED", steps: [{ text: "child finished" }] },
      { when: "subagent_report", steps: [{ text: "parent heard back" }] },
    );
    const created = await watcher.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      name: "delegated",
      task: "TASK-DELEGATED",
    });
    const run = created.runs[0];

    const dialog = page.getByTestId("permission-dialog");
    await dialog.waitFor();
    expect(await dialog.getByTestId("dialog-from").textContent()).toBe(`Asked by subagent ${run.alias}`);
    expect(await dialog.getByTestId("permission-tool").textContent()).toBe("bash");
    expect(await dialog.getByTestId("permission-detail").first().textContent()).toContain(
      "echo from-the-child",
    );
    await dialog.getByTestId("permission-choice").first().click();

    const waited = await watcher.ok({
      type: "subagent.wait",
      parent_agent_id: parent,
      handles: [run.run_id],
    });
    expect(waited.runs[0]).toMatchObject({ state: "completed", final_text: "child finished" });
    await dialog.waitFor({ state: "detached" });
    // The child's own transcript holds the command's output: it really ran, on this answer.
    const childRequest = llm().requests.find(
      (r) =>
        JSON.stringify(r.body).includes("TASK-DELEGATED") &&
        JSON.stringify(r.body).includes("from-the-child\\n"),
    );
    expect(childRequest).toBeDefined();
  });
});
