/**
 * "A deployment behind nginx works by following docs/WEB-DEPLOYMENT.md" (issue 9), in a real
 * Chromium: the daemon runs with the recipe's flags, nginx with the recipe's config (both read
 * from the doc), TLS from a certificate made here that Chromium trusts by its SPKI hash only.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { tempDir } from "../agent/support/agent-process.ts";
import { findNginx, freePort, NGINX_SECTION, RECIPE_HOST, startNginx } from "../daemon/auth/nginx-proxy.ts";
import { selfSignedCert } from "../daemon/auth/self-signed.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import {
  expectProxiedEnrollment,
  proxiedChromiumArgs,
  useRecipeDaemons,
} from "./support/proxied-enrollment.ts";

const HAVE_NGINX = findNginx() !== undefined || process.env.CI === "true";

// nginx's port and certificate are fixed before Chromium starts: it is told both at launch.
const port = freePort();
const tls = selfSignedCert(tempDir("nginx-cert"), { dns: [RECIPE_HOST], ip: ["127.0.0.1"] });
const openContext = useChromium(() => proxiedChromiumArgs(port, tls.spki));
const startDaemon = useRecipeDaemons();

describe.skipIf(!HAVE_CHROMIUM || !HAVE_NGINX)("behind nginx, as docs/WEB-DEPLOYMENT.md says", () => {
  test(
    "the printed public URL enrolls with the __Host- Secure cookie, connects through nginx, survives a reload",
    async () => {
      const { port: upstreamPort, enrollmentUrl } = await startDaemon(NGINX_SECTION);
      const nginx = await startNginx({ port, upstreamPort, tls });
      try {
        await expectProxiedEnrollment(await openContext(), enrollmentUrl);
        // Everything went through nginx, the upgrade included, and the code (in the URL's
        // fragment and the POST body only) is in none of its log lines.
        const log = readFileSync(nginx.accessLog, "utf8");
        expect(log).toMatch(/"GET \/ws HTTP\/1\.1" 101 /);
        expect(log).toMatch(/"POST \/enroll HTTP\/1\.1" 200 /);
        expect(log).not.toContain(enrollmentUrl.slice(enrollmentUrl.indexOf("=") + 1));
      } finally {
        await nginx.stop();
      }
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
