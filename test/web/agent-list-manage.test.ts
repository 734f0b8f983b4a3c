/**
 * Managing the agent list in a real Chromium against a real daemon: filter by text, finished
 * subagents folded under their parent, rename in place and delete after a confirmation, both
 * seen at once by a second browser (the daemon's `agent_updated` / `agent_deleted`).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { childAgent } from "../daemon/support/child-agent.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { agentRow, mintEnrollmentUrl, openRoom } from "./support/control-room-page.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(90_000);

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

describe.skipIf(!HAVE_CHROMIUM)("managing the agent list in Chromium", () => {
  test("filter, folded finished subagents, rename and delete seen by every browser", async () => {
    const daemon = await startDaemon();
    const control = await daemon.client();
    const create = async (name: string) =>
      String(
        (await control.ok({ type: "agent.create", cwd: daemon.cwd, model: "mock/chat", name })).agent_id,
      );
    const api = await create("api-server");
    const web = await create("web-client");
    const docs = await create("docs-writer");
    const finished = await childAgent(llm(), control, api, "helper");
    await control.ok({ type: "agent.terminate", agent_id: finished });
    // A subagent is listed by its alias (a friendly name from the pool).
    const alias = String((await control.ok({ type: "agent.status", agent_id: finished })).agents[0].alias);

    const page = await openRoom(await openContext(), daemon.enrollmentUrl);
    const other = await openRoom(await openContext(), await mintEnrollmentUrl(daemon));
    const names = (p: typeof page) =>
      p.locator('[data-testid="agent-row"] .agent-name').evaluateAll((els) => els.map((e) => e.textContent));

    // The finished subagent folds under its parent, behind a toggle that says how many.
    const toggle = page.getByTestId("subagents-toggle");
    await toggle.filter({ hasText: "Show 1 finished subagent" }).waitFor();
    expect(await names(page)).toEqual(["api-server", "web-client", "docs-writer"]);
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    await toggle.click();
    await agentRow(page, finished).waitFor();
    expect(await agentRow(page, finished).getAttribute("data-depth")).toBe("1");
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    await toggle.click();
    await agentRow(page, finished).waitFor({ state: "detached" });

    // The filter matches names (and paths, models, ids), keeping a match's parent for context.
    const filter = page.getByRole("searchbox", { name: "filter agents" });
    await filter.fill("DOCS");
    await agentRow(page, api).waitFor({ state: "detached" });
    expect(await names(page)).toEqual(["docs-writer"]);
    await filter.fill(alias);
    await agentRow(page, finished).waitFor();
    expect(await names(page)).toEqual(["api-server", alias]);
    await filter.fill("nothing-like-this");
    await page.getByText("No agent matches “nothing-like-this”.").waitFor();
    await filter.fill("");
    await agentRow(page, docs).waitFor();

    // Rename in place: the other browser's list follows.
    await agentRow(page, web).click();
    await page.getByTestId("rename-agent").click();
    const input = page.getByRole("textbox", { name: "new name for web-client" });
    await input.fill("frontend");
    await input.press("Enter");
    await agentRow(page, web).locator(".agent-name").filter({ hasText: "frontend" }).waitFor();
    await agentRow(other, web).locator(".agent-name").filter({ hasText: "frontend" }).waitFor();
    await page.getByTestId("agent-header").getByRole("heading", { name: "frontend" }).waitFor();
    // Escape leaves the name as it was.
    await page.getByTestId("rename-agent").click();
    const again = page.getByRole("textbox", { name: "new name for frontend" });
    await again.fill("ignored");
    await again.press("Escape");
    await page.getByTestId("rename-agent").waitFor();
    expect(await agentRow(page, web).locator(".agent-name").textContent()).toBe("frontend");

    // Delete asks first; cancelling keeps it.
    await agentRow(page, docs).click();
    await page.getByTestId("delete-agent").click();
    const confirm = page.getByRole("alertdialog", { name: "delete docs-writer" });
    await confirm.waitFor();
    await page.keyboard.press("Escape");
    await confirm.waitFor({ state: "detached" });
    await page.getByTestId("delete-agent").click();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await agentRow(page, docs).waitFor({ state: "detached" });
    await agentRow(other, docs).waitFor({ state: "detached" });
    expect(await names(other)).toEqual(["api-server", "frontend"]);
    // Nothing is selected any more, and the daemon has forgotten it.
    await page.waitForFunction(() => new URL(window.location.href).searchParams.get("agent") === null);
    const listed = await control.ok({ type: "agent.list" });
    expect(listed.agents.map((a: { agent_id: string }) => a.agent_id)).not.toContain(docs);
  });
});
