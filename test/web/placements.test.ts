/**
 * Placements in the control room (docs/placements.md): the new-agent form offers the daemon's
 * placements with their room, a full one cannot be picked, and the list shows where each agent
 * runs. The placement is a `command` one through an exec -i stand-in (test/placements).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mockHome } from "../agent/support/agent-process.ts";
import { execScript, remoteShard, writePlacements } from "../placements/support/remote-shard.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { agentRow, openRoom } from "./support/control-room-page.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(90_000);

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

describe.skipIf(!HAVE_CHROMIUM)("placements in Chromium", () => {
  test("the form picks a placement with room; the list says where each agent runs", async () => {
    const home = mockHome(llm().url);
    const remote = remoteShard(llm().url);
    const argv = [execScript(), "-i", "pod-0", "--", remote.shard, "agent"];
    writePlacements(home, {
      pod: { kind: "command", argv },
      tiny: { kind: "command", argv, max_runtimes: 1 },
    });
    const daemon = await startDaemon({ home });
    const page = await openRoom(await openContext(), daemon.enrollmentUrl);
    const picker = page.getByTestId("create-placement");
    await picker.waitFor();
    expect(await picker.locator("option").allTextContents()).toEqual([
      "this machine · 16 free",
      "pod · 16 free",
      "tiny · 1 free",
    ]);

    // One agent on "tiny" fills it: the form then says so and will not offer it.
    const control = await daemon.client();
    await control.ok({ type: "agent.create", cwd: remote.cwd, model: "mock/chat", placement: "tiny" });
    await picker.focus();
    await picker.locator("option", { hasText: "tiny · full" }).waitFor({ state: "attached" });
    expect(await picker.locator('option[value="tiny"]').isDisabled()).toBe(true);

    await page.getByLabel("working directory").fill(remote.cwd);
    await picker.selectOption("pod");
    await page.getByRole("button", { name: "New agent" }).click();
    const row = page.locator('[data-testid="agent-row"][aria-current="true"]');
    await row.getByTestId("agent-placement").waitFor();
    expect(await row.getByTestId("agent-placement").textContent()).toBe("pod:");
    const id = String(await row.getAttribute("data-agent-id"));
    const list = await control.ok({ type: "agent.list" });
    const info = (Array.isArray(list.agents) ? list.agents : []).find(
      (a: { agent_id?: string }) => a.agent_id === id,
    );
    expect(info?.placement).toBe("pod");
    expect(await agentRow(page, id).locator(".path").textContent()).toBe(`pod: ${remote.cwd}`);
  });
});
