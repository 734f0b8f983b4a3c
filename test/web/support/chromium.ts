/**
 * The system Chromium driven by playwright-core (never a downloaded browser), with the flags
 * this machine needs (no sandbox as root, no background networking on a closed network).
 * One browser per test file; each test opens its own contexts, closed after it.
 */
import { afterAll, afterEach } from "bun:test";
import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, chromium } from "playwright-core";

export const CHROMIUM_PATH = process.env.SHARD_CHROMIUM ?? "/usr/bin/chromium";
/** CI installs Chromium, so there a missing one fails the tests instead of skipping them. */
export const HAVE_CHROMIUM = existsSync(CHROMIUM_PATH) || process.env.CI === "true";

const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A browser test starts Chromium, a daemon and agents: Bun's 5 s default is too short under load. */
export const BROWSER_TEST_TIMEOUT_MS = 90_000;

/**
 * Registers cleanup and returns a function that opens a fresh context (own cookies and storage).
 * `extraArgs` is read when the browser starts (at the first context), so it may name things a
 * `beforeAll` made (a certificate to trust, a host mapping).
 */
export function useChromium(extraArgs: () => string[] = () => []): (options?: {
  viewport?: { width: number; height: number };
  /** Security tests: turn the page's CSP off, so only the page's own code stands between a payload and execution. */
  bypassCSP?: boolean;
}) => Promise<BrowserContext> {
  let browser: Promise<Browser> | undefined;
  const contexts: BrowserContext[] = [];
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    if (browser !== undefined) await (await browser).close();
  });
  return async (options = {}) => {
    browser ??= chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...FLAGS, ...extraArgs()],
    });
    const context = await (await browser).newContext({
      viewport: options.viewport ?? { width: 1280, height: 800 },
      bypassCSP: options.bypassCSP ?? false,
    });
    contexts.push(context);
    return context;
  };
}
