/**
 * An agent whose model no provider can serve: the page says so under the agent — the missing
 * key, not "no provider is configured" when models.json has one — with the model menu right
 * there; picking a working model clears it and the agent answers. A new agent gets a working
 * model. With nothing configured at all, the "add a provider" help never squeezes the
 * transcript away on a phone.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { DEFAULT_ANTHROPIC_MODEL } from "../../src/providers/builtin-models.ts";
import { tempDir } from "../agent/support/agent-process.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { typeAndSend } from "./support/composer-input.ts";
import { openRoom } from "./support/control-room-page.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

describe.skipIf(!HAVE_CHROMIUM)("a model without a provider in Chromium", () => {
  test("is said inline with the model menu; a working model clears it", async () => {
    const daemon = await startDaemon();
    const control = await daemon.client();
    const agentId = String(
      (await control.ok({ type: "agent.create", cwd: daemon.cwd, model: DEFAULT_ANTHROPIC_MODEL })).agent_id,
    );
    const page = await openRoom(await openContext(), daemon.enrollmentUrl);
    await page.goto(`${daemon.url}/?agent=${agentId}`);

    const problem = page.getByTestId("model-problem");
    await problem.waitFor();
    const reason = (await page.getByTestId("model-problem-reason").textContent()) ?? "";
    expect(reason).toContain("ANTHROPIC_API_KEY");
    expect(reason).not.toContain("No model provider is configured");
    // The new-agent menu offers only models that can answer.
    const offered = await page.getByTestId("create-model").locator("option").allTextContents();
    expect(offered).toContain("mock/chat");
    expect(offered).not.toContain(DEFAULT_ANTHROPIC_MODEL);

    await page.getByTestId("model-problem-picker").selectOption("mock/chat");
    await page.locator('[data-testid="model-picker"][data-value="mock/chat"]').waitFor();
    await problem.waitFor({ state: "detached" });
    llm().enqueue({ steps: [{ text: "Answering on mock." }] });
    await typeAndSend(page, "hello");
    await page.getByText("Answering on mock.").waitFor();

    // A new agent with the default model: it works, so nothing is said.
    await page.getByLabel("working directory").fill(tempDir("cwd"));
    await page.getByRole("button", { name: "New agent" }).click();
    await page.waitForFunction((first) => !location.search.includes(first), agentId);
    await page.getByTestId("model-picker").waitFor();
    expect(await page.getByTestId("model-problem").count()).toBe(0);
    expect(await page.getByTestId("notice").count()).toBe(0);
  });

  test("with nothing configured, the help leaves the transcript its room on a phone", async () => {
    const daemon = await startDaemon({ home: tempDir("home"), env: { SHARD_DISCOVER_PORTS: "1" } });
    const control = await daemon.client();
    const agentId = String((await control.ok({ type: "agent.create", cwd: daemon.cwd })).agent_id);
    const page = await openRoom(
      await openContext({ viewport: { width: 390, height: 844 } }),
      daemon.enrollmentUrl,
    );
    await page.goto(`${daemon.url}/?agent=${agentId}`);
    await page.getByTestId("first-run").waitFor();
    await page.getByTestId("transcript-scroll").waitFor();
    const height = await page.getByTestId("transcript").evaluate((el) => el.getBoundingClientRect().height);
    expect(height).toBeGreaterThanOrEqual(200);
    // Nothing is configured, so that is what the agent's problem says.
    expect(await page.getByTestId("model-problem-reason").textContent()).toContain(
      "No model provider is configured",
    );
  });
});
