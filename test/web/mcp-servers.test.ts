/**
 * An agent's MCP servers in the web (docs/mcp.md, protocol-additions §19), in a real Chromium
 * against a real daemon whose home configures the real server-everything and a server that
 * cannot start: after the first turn the header shows everything ready with its tool count and
 * the other failed, its error (secrets redacted) in its title. A phone opening the agent later
 * (from the attach's `sync`) shows only the count chip, and the header stays small.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mockHome } from "../agent/support/agent-process.ts";
import { everythingStdio, writeMcpConfig } from "../mcp/support.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { createWatchedAgent, enrolledPage, mintEnrollmentUrl, openAgent, PHONE } from "./dialogs-page.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { typeAndSend } from "./support/composer-input.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const llm = useMockLlmServer({ clearQueueBeforeEach: true });
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

const SECRET = "hush-hush-41a9e3";

describe.skipIf(!HAVE_CHROMIUM)("MCP servers in the agent header", () => {
  test("ready with its tool count, failed with its redacted error; on a phone a count chip", async () => {
    const home = mockHome(llm().url);
    writeMcpConfig(home, {
      everything: everythingStdio(`shard-mcp-web-${process.pid}`),
      leaky: {
        command: process.execPath,
        args: ["-e", "console.error('token=' + process.env.MY_TOKEN); process.exit(1)"],
        env: { MY_TOKEN: SECRET },
      },
    });
    const daemon = await startDaemon({ home });
    const { agentId, watcher } = await createWatchedAgent(daemon);
    const page = await enrolledPage(openContext, daemon.enrollmentUrl);
    await openAgent(page, daemon.url, agentId);
    // Nothing has started before the first turn, so nothing is shown.
    expect(await page.getByTestId("mcp-servers").count()).toBe(0);

    llm().enqueue({ steps: [{ text: "Hello from the model." }] });
    const from = watcher.messages.length;
    await typeAndSend(page, "hello");
    await watcher.waitAgent(agentId, "turn_end", from);
    const tools: { function: { name: string } }[] = llm().requests.at(-1)?.body.tools ?? [];
    const count = tools.filter((t) => t.function.name.startsWith("mcp__everything__")).length;
    expect(count).toBeGreaterThan(5);

    const header = page.getByTestId("agent-header");
    const ready = header.locator('[data-testid="mcp-server"][data-name="everything"][data-state="ready"]');
    await ready.waitFor();
    expect(await ready.textContent()).toBe(`everything: ${count} tools`);
    const failed = header.locator('[data-testid="mcp-server"][data-name="leaky"][data-state="failed"]');
    await failed.waitFor();
    expect(await failed.textContent()).toBe("leaky: failed");
    const why = (await failed.getAttribute("title")) ?? "";
    expect(why).toContain("could not start");
    expect(why).toContain("token=[redacted]");
    expect(await page.content()).not.toContain(SECRET);
    expect(await header.getByTestId("mcp-count").isVisible()).toBe(false);

    // A phone attaching now learns it from the sync: only the count chip shows.
    const phone = await enrolledPage(openContext, await mintEnrollmentUrl(watcher), PHONE);
    await openAgent(phone, daemon.url, agentId);
    const chip = phone.getByTestId("agent-header").getByTestId("mcp-count");
    await chip.waitFor();
    expect(await chip.textContent()).toBe("MCP 1/2");
    expect(await chip.getAttribute("data-failed")).toBe("true");
    expect(await chip.getAttribute("title")).toContain(`MCP server everything: ready, ${count} tools`);
    const box = await phone.getByTestId("agent-header").boundingBox();
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(PHONE.height / 4);
  });
});
