/**
 * Issue 11's distribution check: the compiled `shard` binary, copied alone into an empty folder
 * and started on a fresh SHARD_HOME, serves its embedded web client, and a browser enrolls and
 * drives an agent through it (the binary runs `shard agent` by re-executing itself).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { copyFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../agent/support/agent-process.ts";
import { DaemonProcess } from "../daemon/support/daemon-harness.ts";
import { compiledBinary } from "../support/compiled-binary.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { typeAndSend } from "./support/composer-input.ts";

const llm = useMockLlmServer();
const openContext = useChromium();
const daemons: DaemonProcess[] = [];
afterEach(async () => {
  for (const d of daemons.splice(0)) {
    await d.stop();
  }
});

describe.skipIf(!HAVE_CHROMIUM)("the compiled binary", () => {
  test(
    "alone in an empty folder, it serves the page and runs an agent a browser drives",
    async () => {
      const built = await compiledBinary();
      const folder = tempDir("bin-alone");
      const binary = join(folder, "shard");
      copyFileSync(built, binary);
      expect(readdirSync(folder)).toEqual(["shard"]);

      const home = tempDir("bin-home");
      const daemon = new DaemonProcess(home, ["--port", "0"], ["daemon"], {
        env: { OPENAI_BASE_URL: `${llm().url}/v1`, OPENAI_API_KEY: "test" },
        executable: [binary],
      });
      daemons.push(daemon);
      await daemon.url();
      const enrollmentUrl = await daemon.stdoutLine(/#enroll=/);

      llm().enqueue({ steps: [{ text: "Answer from the compiled binary's agent.", chunks: 4 }] });
      const page = await (await openContext()).newPage();
      await page.goto(enrollmentUrl);
      await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
      await page.getByLabel("working directory").fill(tempDir("bin-cwd"));
      await page.getByRole("button", { name: "New agent" }).click();
      await typeAndSend(page, "hello binary");
      await page.getByText("Answer from the compiled binary's agent.").waitFor();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
