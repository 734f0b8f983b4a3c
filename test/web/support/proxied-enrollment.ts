/**
 * One recipe of docs/WEB-DEPLOYMENT.md, end to end in Chromium: the daemon started with the
 * recipe's own command (read from the doc; only the port is left to the system), a TLS proxy in
 * front, and the browser at `https://shard.example.com` (mapped to the proxy's port, as DNS
 * would be). The printed public URL must enroll with the `__Host-` Secure cookie, connect its
 * WebSocket through the proxy, shrug off a spoofed X-Forwarded-Host, and survive a reload.
 */
import { afterEach, expect } from "bun:test";
import type { BrowserContext } from "playwright-core";
import { tempDir } from "../../agent/support/agent-process.ts";
import { daemonArgs, recipeBlocks, substitute } from "../../daemon/auth/deploy-recipes.ts";
import { RECIPE_DAEMON_PORT, RECIPE_HOST } from "../../daemon/auth/nginx-proxy.ts";
import { DaemonProcess } from "../../daemon/support/daemon-harness.ts";
import { builtWebDir } from "./web-build.ts";

/** Chromium's flags for a proxy on `port` serving a certificate with this SPKI hash. */
export function proxiedChromiumArgs(port: number, spki: string): string[] {
  return [
    `--host-resolver-rules=MAP ${RECIPE_HOST} 127.0.0.1:${port}`,
    `--ignore-certificate-errors-spki-list=${spki}`,
  ];
}

export interface RecipeDaemon {
  daemon: DaemonProcess;
  /** The address it bound (what the proxy forwards to). */
  port: number;
  enrollmentUrl: string;
}

/** Registers the clean-up; returns a starter of the daemon of a recipe section. */
export function useRecipeDaemons(): (section: string) => Promise<RecipeDaemon> {
  const running: DaemonProcess[] = [];
  afterEach(async () => {
    for (const daemon of running.splice(0)) {
      await daemon.stop();
    }
  });
  return async (section) => {
    const [shell = ""] = recipeBlocks(section, "sh");
    const args = daemonArgs(substitute(shell, [[`--port ${RECIPE_DAEMON_PORT}`, "--port 0"]]));
    expect(args).toEqual(
      expect.arrayContaining(["--trust-proxy", "--public-host", RECIPE_HOST, "--allowed-origin"]),
    );
    const daemon = new DaemonProcess(tempDir("home"), args, ["daemon"], {
      env: { SHARD_WEB_DIR: await builtWebDir() },
    });
    running.push(daemon);
    // It prints the address it bound, then the public enrollment URL.
    const bound = await daemon.url();
    const enrollmentUrl = await daemon.stdoutLine(/#enroll=/);
    expect(enrollmentUrl).toMatch(/^https:\/\/shard\.example\.com\/#enroll=[A-Za-z0-9_-]{43}$/);
    return { daemon, port: Number(new URL(bound).port), enrollmentUrl };
  };
}

const OPEN = '[data-testid="connection"][data-state="open"]';

/** The browser's side of the recipe; the context is a fresh one of a Chromium started with `proxiedChromiumArgs`. */
export async function expectProxiedEnrollment(context: BrowserContext, enrollmentUrl: string): Promise<void> {
  const page = await context.newPage();
  await page.goto(enrollmentUrl);
  await page.locator(OPEN).waitFor();
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

  // Script on the page can set X-Forwarded-Host (fetch allows it): the recipe overwrites it,
  // so the daemon sees the real host and answers as usual.
  const spoofed = await page.evaluate(async () => {
    const res = await fetch("/bootstrap", {
      method: "POST",
      headers: { "X-Forwarded-Host": "evil.example" },
    });
    return res.status;
  });
  expect(spoofed).toBe(200);

  await page.reload();
  await page.locator(OPEN).waitFor();
}
