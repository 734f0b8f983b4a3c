/**
 * A parent agent's subagent jobs in the control room (issues 10 and 12), in Chromium against a
 * real daemon, real child agents and the mock model: the runs and their states show under the
 * parent, update live, and a run still going can be stopped from the page. The task text never
 * reaches the page.
 */
import { describe, expect, test } from "bun:test";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { openRoom } from "./support/control-room-page.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

describe.skipIf(!HAVE_CHROMIUM)("subagent jobs in the control room", () => {
  test(
    "runs show under the parent with live states; Stop cancels a running one",
    async () => {
      const daemon = await startDaemon();
      const control = await daemon.client();
      const parent = String(
        (await control.ok({ type: "agent.create", cwd: daemon.cwd, name: "parent" })).agent_id,
      );
      llm().enqueue(
        { when: "TASK-HOLD-SECRET", steps: [{ text: "working" }, { hold: "long-run" }, { text: " done" }] },
        { when: "TASK-FAIL-SECRET", status: 400, error_type: "invalid_request_error" },
      );
      const page = await openRoom(await openContext(), daemon.enrollmentUrl);
      await page.locator(`[data-testid="agent-row"][data-agent-id="${parent}"]`).click();
      await page.getByTestId("transcript").waitFor();

      const created = await control.ok({
        type: "subagent.create",
        parent_agent_id: parent,
        strategy: "parallel",
        tasks: [
          { name: "long", task: "TASK-HOLD-SECRET" },
          { name: "broken", task: "TASK-FAIL-SECRET" },
        ],
      });
      await llm().waitForHold("long-run");
      const runs = page.getByTestId("job-run");
      await page.locator('[data-testid="job-run"][data-state="failed"]').waitFor();
      await page.locator('[data-testid="job-run"][data-state="active"]').waitFor();
      expect(await runs.count()).toBe(2);
      expect(await page.getByTestId("jobs-panel").textContent()).not.toContain("SECRET");

      await page
        .locator('[data-testid="job-run"][data-state="active"]')
        .getByRole("button", { name: "Stop" })
        .click();
      await page.locator('[data-testid="job-run"][data-state="cancelled"]').waitFor();
      const status = await control.ok({ type: "subagent.status", parent_agent_id: parent });
      expect(status.jobs[0]).toMatchObject({ job_id: created.job_id });
      expect(status.jobs[0].runs.map((r: { state: string }) => r.state).sort()).toEqual([
        "cancelled",
        "failed",
      ]);

      // A reload of `?agent=<parent>` asks for the jobs once the socket is up: the runs show
      // again and no request made too early shows as a failure (issue 20 B.8).
      expect(page.url()).toContain(`agent=${parent}`);
      await page.reload();
      await page.locator('[data-testid="job-run"][data-state="cancelled"]').waitFor();
      await page.locator('[data-testid="job-run"][data-state="failed"]').waitFor();
      expect(await page.getByTestId("notice").count()).toBe(0);
      expect(await page.getByTestId("load-error").count()).toBe(0);
      llm().release("long-run");
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
