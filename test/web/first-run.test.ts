/**
 * First run in Chromium: a daemon with no models.json, no API key and no local server (the
 * probe points at a closed port) — the control room says how to add a provider before any
 * prompt, and once models.json exists "Check again" clears it and an agent answers. With a
 * local OpenAI-compatible server on a probed port, it says which one new agents use.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { typeAndSend } from "./support/composer-input.ts";
import { openRoom } from "./support/control-room-page.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

/** Port 1 is privileged and unused here: nothing answers the local-server probe. */
const CLOSED_PORT = "1";

describe.skipIf(!HAVE_CHROMIUM)("first run in Chromium", () => {
  test("nothing configured: the room says how to add a provider; models.json and Check again fix it", async () => {
    const home = tempDir("home");
    const daemon = await startDaemon({ home, env: { SHARD_DISCOVER_PORTS: CLOSED_PORT } });
    const page = await openRoom(await openContext(), daemon.enrollmentUrl);

    const panel = page.getByTestId("first-run");
    await panel.waitFor();
    const text = (await panel.textContent()) ?? "";
    for (const way of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL", "Ollama", "models.json"])
      expect(text).toContain(way);
    expect(await page.getByTestId("models-file").textContent()).toBe(join(home, "models.json"));
    expect(await page.getByTestId("first-run-daemon-said").textContent()).toContain(
      `No local server answered on 127.0.0.1:${CLOSED_PORT}`,
    );

    // The user adds a models.json; checking again clears the panel and an agent answers.
    copyFileSync(join(mockHome(llm().url), "models.json"), join(home, "models.json"));
    await page.getByTestId("first-run-recheck").click();
    await panel.waitFor({ state: "detached" });
    llm().enqueue({ steps: [{ text: "Configured and answering." }] });
    await page.getByLabel("working directory").fill(daemon.cwd);
    await page.getByRole("button", { name: "New agent" }).click();
    await page.getByTestId("model-picker").waitFor();
    await page.getByTestId("model-picker").selectOption("mock/chat");
    await page.locator('[data-testid="model-picker"][data-value="mock/chat"]').waitFor();
    await typeAndSend(page, "hello");
    await page.getByText("Configured and answering.").waitFor();
  });

  test("a local server on a probed port is named as the one new agents use", async () => {
    const port = new URL(llm().url).port;
    const daemon = await startDaemon({
      home: tempDir("home"),
      env: { SHARD_DISCOVER_PORTS: `${CLOSED_PORT},${port}` },
    });
    const page = await openRoom(await openContext(), daemon.enrollmentUrl);
    const note = page.getByTestId("provider-local-server");
    await note.waitFor();
    expect(await note.textContent()).toContain(`http://127.0.0.1:${port}/v1`);
    expect(await page.getByTestId("first-run").count()).toBe(0);
  });
});
