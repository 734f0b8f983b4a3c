/**
 * A daemon whose answer does not match its command's result schema (a daemon of another version,
 * say) in Chromium: the page, under its real CSP, checks every answer against the command table
 * and says what is wrong — in place of the list and as a notice — instead of showing the list
 * as empty. The daemon is real; a small real proxy between it and the page rewrites the one
 * answer.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { makeRepo } from "../daemon/workspaces/git-repo.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { openRoom } from "./support/control-room-page.ts";
import { type RewritingProxy, startRewritingProxy } from "./support/rewriting-proxy.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();
const proxies: RewritingProxy[] = [];
afterEach(() => {
  for (const proxy of proxies.splice(0)) proxy.stop();
});

describe.skipIf(!HAVE_CHROMIUM)("an answer outside its result schema", () => {
  test(
    "workspace.list with a renamed field: the panel and a notice say so; no empty list",
    async () => {
      const daemon = await startDaemon();
      const repo = makeRepo();
      const client = await daemon.client();
      await client.ok({ type: "workspace.create", cwd: repo, label: "real work" });
      const proxy = startRewritingProxy(daemon.url);
      proxies.push(proxy);
      const page = await openRoom(
        await openContext(),
        `${proxy.origin}/${new URL(daemon.enrollmentUrl).hash}`,
      );

      // Through the proxy, unchanged: the workspace is listed.
      await page.getByTestId("workspaces-toggle").click();
      const panel = page.getByTestId("workspaces-panel");
      await panel.getByTestId("workspace-row").waitFor();
      await panel.getByRole("button", { name: "Close" }).click();
      await panel.waitFor({ state: "detached" });

      // The daemon now answers as if `workspaces` had been renamed.
      proxy.rewriteWith((message) =>
        message.type === "response" && message.command === "workspace.list" && message.success === true
          ? { ...message, data: { items: [] } }
          : message,
      );
      await page.getByTestId("workspaces-toggle").click();
      const error = panel.getByTestId("load-error");
      await error.waitFor();
      const said = await error.textContent();
      expect(said).toContain("The workspaces could not be loaded: INTERNAL_ERROR: workspace.list response:");
      expect(said).toContain('field "data.workspaces"');
      expect(said).toContain("check that the client and server versions match");
      expect(await page.locator(".notice").first().textContent()).toContain(
        'INTERNAL_ERROR: workspace.list response: field "data.workspaces"',
      );
      expect(await panel.getByTestId("workspace-row").count()).toBe(0);
      expect(await panel.textContent()).not.toContain("No workspaces yet.");
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
