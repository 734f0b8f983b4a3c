/**
 * Workspaces from the control room (issues 10 and 13) in Chromium against a real daemon and real
 * git: create one with a fresh agent, see it grouped under its project, and retire it — the
 * unmerged branch is deleted only after the page asked and the user confirmed.
 */
import { describe, expect, test } from "bun:test";
import { commitFile, makeRepo, sh } from "../daemon/workspaces/git-repo.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { openRoom } from "./support/control-room-page.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

describe.skipIf(!HAVE_CHROMIUM)("workspaces in the control room", () => {
  test(
    "create with an agent, grouped by project, retire with the confirmation for unmerged work",
    async () => {
      const daemon = await startDaemon();
      const repo = makeRepo();
      const page = await openRoom(await openContext(), daemon.enrollmentUrl);
      await page.getByTestId("workspaces-toggle").click();
      await page.getByLabel("project directory").fill(repo);
      await page.getByLabel("workspace label").fill("Fix <b>bug</b>");
      await page.getByRole("button", { name: "New workspace" }).click();

      const row = page.getByTestId("workspace-row");
      await row.waitFor();
      expect(await page.getByTestId("workspace-group").locator("h3").textContent()).toBe(repo);
      expect(await row.locator(".agent-name").textContent()).toBe("Fix <b>bug</b>");
      await page.getByTestId("transcript").waitFor();

      const client = await daemon.client();
      const [ws] = (await client.ok({ type: "workspace.list" })).workspaces;
      commitFile(ws.cwd, "work.txt", "unmerged work\n");
      const [binding] = (await client.ok({ type: "workspace.status", workspace_id: ws.workspace_id }))
        .workspace.bindings;
      const from = client.messages.length;
      await client.ok({ type: "agent.terminate", agent_id: binding.agent_id });
      await client.waitFor(
        (m) =>
          m.type === "agent_status_changed" &&
          m.agent_id === binding.agent_id &&
          m.runtime_state === "stopped",
        from,
      );

      // Review before retiring: the branch's committed work, drawn as a diff.
      await row.getByRole("button", { name: "Review" }).click();
      const review = page.getByTestId("workspace-review");
      await review.getByTestId("review-file").waitFor();
      expect(await review.textContent()).toContain("work.txt");
      expect(await review.textContent()).toContain("unmerged work");

      await row.getByRole("button", { name: "Retire", exact: true }).click();
      const confirm = page.getByTestId("retire-confirm");
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain("whose changes are not in main");
      expect(sh(repo, "branch", "--list", ws.branch)).toContain(ws.branch);
      await confirm.getByRole("button", { name: "Delete branch" }).click();
      await page.getByTestId("workspaces-said").getByText("deleted").waitFor();
      expect(sh(repo, "branch", "--list", ws.branch)).toBe("");
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
