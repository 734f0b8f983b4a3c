/**
 * Cost and budgets in a real Chromium against a real daemon (docs/usage.md): the header shows
 * the agent's cost and budget; once a turn spends the budget, the header says so (with the
 * limit's message), the list still shows the cost, and an unpriced model's cost reads unknown.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mockHome } from "../agent/support/agent-process.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { typeAndSend } from "./support/composer-input.ts";
import { agentRow, openRoom } from "./support/control-room-page.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(120_000);

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

/** mock/chat: $1 per million input tokens. */
const DOLLAR = { input: 1_000_000, output: 0 };

describe.skipIf(!HAVE_CHROMIUM)("cost and budgets in Chromium", () => {
  test("the header shows cost and budget, then the spent budget; unpriced cost is unknown", async () => {
    const home = mockHome(llm().url, [{ id: "unpriced", context_window: 100_000, max_output: 4096 }]);
    const daemon = await startDaemon({ home });
    const control = await daemon.client();
    const capped = (
      await control.ok({
        type: "agent.create",
        cwd: daemon.cwd,
        model: "mock/chat",
        name: "capped",
        budget_usd: 1.5,
      })
    ).agent_id as string;
    const free = (
      await control.ok({ type: "agent.create", cwd: daemon.cwd, model: "mock/unpriced", name: "unpriced" })
    ).agent_id as string;
    const page = await openRoom(await openContext(), daemon.enrollmentUrl);

    await agentRow(page, capped).click();
    await page.locator('[data-testid="transcript"]').waitFor();
    await page.getByTestId("agent-budget").filter({ hasText: "Budget $0.00 of $1.50" }).waitFor();
    const ls = { steps: [{ tool_call: { name: "ls", args: {} } }], usage: DOLLAR };
    llm().enqueue(ls, ls, { steps: [{ text: "never" }], usage: DOLLAR });
    await typeAndSend(page, "list twice");
    const spent = page.getByTestId("agent-budget").filter({ hasText: "Budget spent" });
    await spent.waitFor();
    expect(await spent.getAttribute("data-exceeded")).toBe("true");
    expect(await spent.textContent()).toContain("$1.50");
    await page.getByTestId("agent-header-usage").filter({ hasText: "$2.00" }).waitFor();
    await agentRow(page, capped).getByTestId("agent-usage").filter({ hasText: "$2.00" }).waitFor();
    llm().clearQueue();

    await agentRow(page, free).click();
    await page.getByTestId("agent-header").locator("h2").filter({ hasText: "unpriced" }).waitFor();
    await page.getByTestId("composer-input").waitFor();
    llm().enqueue({ steps: [{ text: "hi" }], usage: { input: 1000, output: 10 } });
    await typeAndSend(page, "hello");
    await page.getByTestId("agent-header-usage").filter({ hasText: "cost unknown" }).waitFor();
    expect(await page.getByTestId("agent-header-usage").textContent()).not.toContain("$0");
  });

  test("the jobs panel shows what each job cost", async () => {
    const daemon = await startDaemon();
    const control = await daemon.client();
    const parent = String(
      (await control.ok({ type: "agent.create", cwd: daemon.cwd, name: "parent" })).agent_id,
    );
    llm().enqueue({ when: "TASK-PRICED", steps: [{ text: "done" }], usage: { input: 2_000_000, output: 0 } });
    const page = await openRoom(await openContext(), daemon.enrollmentUrl);
    await agentRow(page, parent).click();
    await page.getByTestId("transcript").waitFor();
    await control.ok({
      type: "subagent.create",
      parent_agent_id: parent,
      name: "priced",
      task: "TASK-PRICED",
    });
    await page.locator('[data-testid="job-run"][data-state="completed"]').waitFor();
    await page.getByTestId("job-cost").filter({ hasText: "$2.00" }).waitFor();
  });
});
