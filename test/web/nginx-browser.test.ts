/**
 * "A deployment behind nginx works by following docs/WEB-DEPLOYMENT.md" (issue 9), in a real
 * Chromium: the daemon runs with the recipe's flags, nginx with the recipe's config (both read
 * from the doc), TLS from a certificate made here that Chromium trusts by its SPKI hash, and
 * the browser reaches `https://shard.example.com` (mapped to nginx's port, as DNS would). It
 * opens the public enrollment URL the daemon printed, gets the `__Host-` Secure cookie, connects
 * its WebSocket through nginx, and stays connected across a reload.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { tempDir } from "../agent/support/agent-process.ts";
import { daemonArgs, recipeBlocks, substitute } from "../daemon/auth/deploy-recipes.ts";
import {
  findNginx,
  freePort,
  NGINX_SECTION,
  type Nginx,
  RECIPE_DAEMON_PORT,
  RECIPE_HOST,
  startNginx,
} from "../daemon/auth/nginx-proxy.ts";
import { selfSignedCert } from "../daemon/auth/self-signed.ts";
import { DaemonProcess } from "../daemon/support/daemon-harness.ts";
import { HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import { builtWebDir } from "./support/web-build.ts";

const HAVE_NGINX = findNginx() !== undefined || process.env.CI === "true";
/** Chromium, a build of the web client and two servers start here: more than bun's default 5 s. */
const BROWSER_TEST_TIMEOUT_MS = 60_000;

// nginx's port and certificate are fixed before Chromium starts: it is told both at launch.
const nginxPort = freePort();
const certDir = tempDir("nginx-cert");
const tls = selfSignedCert(certDir, { dns: [RECIPE_HOST], ip: ["127.0.0.1"] });
const openContext = useChromium(() => [
  `--host-resolver-rules=MAP ${RECIPE_HOST} 127.0.0.1:${nginxPort}`,
  `--ignore-certificate-errors-spki-list=${tls.spki}`,
]);

const running: { daemon?: DaemonProcess; nginx?: Nginx }[] = [];
afterEach(async () => {
  for (const { daemon, nginx } of running.splice(0)) {
    await nginx?.stop();
    daemon?.proc.kill("SIGTERM");
    await daemon?.exited;
  }
});

describe.skipIf(!HAVE_CHROMIUM || !HAVE_NGINX)("behind nginx, as docs/WEB-DEPLOYMENT.md says", () => {
  test(
    "the public enrollment URL enrolls with the __Host- Secure cookie, connects through nginx, survives a reload",
    async () => {
      const entry: { daemon?: DaemonProcess; nginx?: Nginx } = {};
      running.push(entry);
      // The daemon command of the recipe, on a port the system picks.
      const [shell = ""] = recipeBlocks(NGINX_SECTION, "sh");
      const args = daemonArgs(substitute(shell, [[`--port ${RECIPE_DAEMON_PORT}`, "--port 0"]]));
      expect(args).toEqual(
        expect.arrayContaining(["--trust-proxy", "--public-host", RECIPE_HOST, "--allowed-origin"]),
      );
      const home = tempDir("home");
      const daemon = new DaemonProcess(home, args, ["daemon"], { SHARD_WEB_DIR: await builtWebDir() });
      entry.daemon = daemon;
      // It prints the address it bound, then the public enrollment URL.
      const bound = await daemon.url();
      const enrollmentUrl = await daemon.stdoutLine(/#enroll=/);
      expect(enrollmentUrl).toMatch(/^https:\/\/shard\.example\.com\/#enroll=[A-Za-z0-9_-]{43}$/);
      const code = enrollmentUrl.slice(enrollmentUrl.indexOf("#enroll=") + "#enroll=".length);

      entry.nginx = await startNginx({ port: nginxPort, upstreamPort: Number(new URL(bound).port), tls });

      const context = await openContext();
      const page = await context.newPage();
      await page.goto(enrollmentUrl);
      await page.locator('[data-testid="connection"][data-state="open"]').waitFor();
      expect(page.url()).toBe(`https://${RECIPE_HOST}/`);

      const cookies = await context.cookies();
      expect(cookies.map((c) => c.name)).toEqual(["__Host-shard_session"]);
      expect(cookies[0]).toMatchObject({
        domain: RECIPE_HOST,
        path: "/",
        secure: true,
        httpOnly: true,
        sameSite: "Strict",
      });

      await page.reload();
      await page.locator('[data-testid="connection"][data-state="open"]').waitFor();

      // Every request went through nginx (the upgrade included), and the code, sent in the URL's
      // fragment and the POST body only, is in none of its log lines.
      const log = readFileSync(entry.nginx.accessLog, "utf8");
      expect(log).toMatch(/"GET \/ws HTTP\/1\.1" 101 /);
      expect(log).toMatch(/"POST \/enroll HTTP\/1\.1" 200 /);
      expect(log).not.toContain(code);
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
