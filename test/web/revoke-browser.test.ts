/**
 * `shard auth revoke <id>` in a real Chromium (issue 9): the revoked browser's open WebSocket
 * is closed, its reconnect is refused (the cookie's session is gone), and the page shows the
 * not-enrolled screen with the way back. Another enrolled browser keeps its session.
 */
import { describe, expect, test } from "bun:test";
import { shard } from "../cli/support/shard-cli.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { useWebDaemons } from "./support/web-daemon.ts";

const llm = useMockLlmServer();
const startDaemon = useWebDaemons(llm);
const openContext = useChromium();

const OPEN = '[data-testid="connection"][data-state="open"]';

describe.skipIf(!HAVE_CHROMIUM)("revoking a browser", () => {
  test(
    "closes its socket, its page shows the not-enrolled screen, and the other browser stays in",
    async () => {
      const daemon = await startDaemon();
      const control = await daemon.client();
      const revoked = await (await openContext()).newPage();
      await revoked.goto(daemon.enrollmentUrl);
      await revoked.locator(OPEN).waitFor();
      const kept = await (await openContext()).newPage();
      await kept.goto(String((await control.ok({ type: "auth.enroll" })).url));
      await kept.locator(OPEN).waitFor();

      const { browsers } = await control.ok({ type: "auth.list" });
      expect(browsers).toHaveLength(2);
      // The first enrolled browser is the one to revoke (the list is in enrollment order).
      const browserId: string = browsers[0].id;
      const home = daemon.process.home;
      const ran = await shard(["auth", "revoke", browserId], { HOME: home, SHARD_HOME: home });
      expect(ran.code).toBe(0);
      expect(ran.stdout).toBe(`revoked ${browserId} (1 connections closed)\n`);

      const notEnrolled = revoked.locator('[data-testid="not-enrolled"]');
      await notEnrolled.waitFor();
      const text = (await notEnrolled.textContent()) ?? "";
      expect(text).toContain("shard auth enroll");
      expect(text).toContain("revoked");
      // A reload does not bring it back: the cookie's session is gone for good.
      await revoked.reload();
      await notEnrolled.waitFor();
      expect(await revoked.locator(OPEN).count()).toBe(0);

      // The other browser's session is untouched: it reloads and connects again.
      await kept.reload();
      await kept.locator(OPEN).waitFor();
      expect(
        (await control.ok({ type: "auth.list" })).browsers.map((b: { id: string }) => b.id),
      ).not.toContain(browserId);
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
