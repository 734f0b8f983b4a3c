/**
 * docs/WEB-DEPLOYMENT.md's Caddy recipe in a real Chromium: the daemon with the recipe's flags,
 * Debian's Caddy with the recipe's Caddyfile (both read from the doc), TLS from a certificate
 * made here that Chromium trusts by its SPKI hash only.
 */
import { describe, test } from "bun:test";
import { tempDir } from "../agent/support/agent-process.ts";
import { CADDY_SECTION, findCaddy, startCaddy } from "../daemon/auth/caddy-proxy.ts";
import { freePort, RECIPE_HOST } from "../daemon/auth/nginx-proxy.ts";
import { selfSignedCert } from "../daemon/auth/self-signed.ts";
import { BROWSER_TEST_TIMEOUT_MS, HAVE_CHROMIUM, useChromium } from "./support/chromium.ts";
import {
  expectProxiedEnrollment,
  proxiedChromiumArgs,
  useRecipeDaemons,
} from "./support/proxied-enrollment.ts";

const HAVE_CADDY = findCaddy() !== undefined || process.env.CI === "true";

const port = freePort();
const tls = selfSignedCert(tempDir("caddy-cert"), { dns: [RECIPE_HOST] });
const openContext = useChromium(() => proxiedChromiumArgs(port, tls.spki));
const startDaemon = useRecipeDaemons();

describe.skipIf(!HAVE_CHROMIUM || !HAVE_CADDY)("behind Caddy, as docs/WEB-DEPLOYMENT.md says", () => {
  test(
    "the printed public URL enrolls with the __Host- Secure cookie, connects through Caddy, survives a reload",
    async () => {
      const { port: upstreamPort, enrollmentUrl } = await startDaemon(CADDY_SECTION);
      const caddy = await startCaddy({ port, upstreamPort, tls });
      try {
        await expectProxiedEnrollment(await openContext(), enrollmentUrl);
      } finally {
        await caddy.stop();
      }
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
