/**
 * docs/WEB-DEPLOYMENT.md's direct non-loopback recipe (a VPN or trusted network, no proxy, no
 * TLS) in a real Chromium: the daemon runs the recipe's command, read from the doc, on a
 * network address of this machine instead of the recipe's 100.64.0.5; the browser opens the
 * printed `http://<address>:<port>/#enroll=…`, gets the plain (non-Secure) cookie, connects and
 * survives a reload. The daemon warned, once, that the cookie crosses the network in plaintext.
 * Skipped on a machine with no address but loopback.
 */
import { describe, expect, test } from "bun:test";
import { networkInterfaces } from "node:os";
import { tempDir } from "../agent/support/agent-process.ts";
import { daemonArgs, recipeBlocks, substitute } from "../daemon/auth/deploy-recipes.ts";
import { RECIPE_DAEMON_PORT } from "../daemon/auth/nginx-proxy.ts";
import { DaemonProcess } from "../daemon/support/daemon-harness.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { builtWebDir } from "./support/web-build.ts";

const RECIPE_ADDRESS = "100.64.0.5";
const address = Object.values(networkInterfaces())
  .flat()
  .find((i) => i !== undefined && i.family === "IPv4" && !i.internal)?.address;

/** A port free on `host` right now. */
function freePortOn(host: string): number {
  const listener = Bun.listen({ hostname: host, port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}

const openContext = useChromium();
const OPEN = '[data-testid="connection"][data-state="open"]';

describe.skipIf(!HAVE_CHROMIUM || address === undefined)(
  "direct on a network address, as docs/WEB-DEPLOYMENT.md says",
  () => {
    test(
      "the printed URL enrolls with a plain cookie, connects, survives a reload; the plaintext warning is printed once",
      async () => {
        const host = address ?? "";
        const port = freePortOn(host);
        const [shell = ""] = recipeBlocks("Direct", "sh");
        const args = daemonArgs(
          substitute(shell, [
            [RECIPE_ADDRESS, host],
            [RECIPE_DAEMON_PORT, String(port)],
          ]),
        );
        expect(args).toContain("--allow-insecure-remote");
        const daemon = new DaemonProcess(tempDir("home"), args, ["daemon"], {
          env: { SHARD_WEB_DIR: await builtWebDir() },
        });
        try {
          const enrollmentUrl = await daemon.stdoutLine(/#enroll=/);
          const origin = `http://${host}:${port}`;
          expect(enrollmentUrl).toMatch(
            new RegExp(`^${origin.replaceAll(".", "\\.")}/#enroll=[A-Za-z0-9_-]{43}$`),
          );
          expect(daemon.stdout.split("\n")[0]).toBe(origin);

          const context = await openContext();
          const page = await context.newPage();
          await page.goto(enrollmentUrl);
          await page.locator(OPEN).waitFor();
          expect(page.url()).toBe(`${origin}/`);
          const cookies = await context.cookies();
          expect(cookies.map((c) => c.name)).toEqual(["shard_session"]);
          expect(cookies[0]).toMatchObject({
            domain: host,
            secure: false,
            httpOnly: true,
            sameSite: "Strict",
          });
          await page.reload();
          await page.locator(OPEN).waitFor();

          const warnings = daemon.stderr.split("\n").filter((l) => l.includes("warning"));
          expect(warnings).toHaveLength(1);
          expect(warnings[0]).toContain("plaintext");
        } finally {
          await daemon.stop();
        }
      },
      BROWSER_TEST_TIMEOUT_MS,
    );
  },
);
