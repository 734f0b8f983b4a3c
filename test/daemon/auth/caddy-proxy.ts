/**
 * A real Caddy as the trusted TLS proxy in front of the daemon, running the Caddyfile recipe of
 * docs/WEB-DEPLOYMENT.md as written there (read from the doc). What the test changes: the site
 * listens on a free port instead of 443, it serves the test's self-signed certificate (`tls
 * <cert> <key>`) instead of fetching one from a CA, the daemon's port, and global options that
 * keep this Caddy to itself (no admin endpoint, no :80 redirect listener, its state in the
 * test's folder, no HTTP/3 on UDP).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../agent/support/agent-process.ts";
import { recipeBlocks, substitute } from "./deploy-recipes.ts";
import { RECIPE_DAEMON_PORT, RECIPE_HOST, waitForPort } from "./nginx-proxy.ts";
import type { SelfSigned } from "./self-signed.ts";

export const CADDY_SECTION = "Caddy";

export function findCaddy(): string | undefined {
  for (const dir of [...(process.env.PATH ?? "").split(":"), "/usr/bin", "/usr/local/bin"]) {
    const path = join(dir, "caddy");
    if (dir !== "" && existsSync(path)) return path;
  }
  return undefined;
}

export interface Caddy {
  stop(): Promise<void>;
}

export function caddyRecipe(options: { port: number; upstreamPort: number }, tls: SelfSigned): string {
  const [block = ""] = recipeBlocks(CADDY_SECTION, "caddyfile");
  return substitute(block, [
    [`${RECIPE_HOST} {`, `${RECIPE_HOST}:${options.port} {\n  tls ${tls.certPath} ${tls.keyPath}`],
    [`127.0.0.1:${RECIPE_DAEMON_PORT}`, `127.0.0.1:${options.upstreamPort}`],
  ]);
}

export async function startCaddy(options: {
  port: number;
  upstreamPort: number;
  tls: SelfSigned;
}): Promise<Caddy> {
  const caddy = findCaddy();
  if (!caddy) throw new Error("caddy is not installed (apt-get install caddy; .ci/run installs it)");
  const dir = tempDir("caddy");
  const config = join(dir, "Caddyfile");
  const log = join(dir, "caddy.log");
  writeFileSync(
    config,
    `{
  admin off
  auto_https disable_redirects
  storage file_system ${join(dir, "data")}
  servers {
    protocols h1 h2
  }
}
${caddyRecipe(options, options.tls)}`,
  );
  const proc = Bun.spawn([caddy, "run", "--config", config, "--adapter", "caddyfile"], {
    stdin: "ignore",
    stdout: "ignore",
    // To a file: nobody drains a pipe while the test runs.
    stderr: Bun.file(log),
    env: { PATH: process.env.PATH ?? "", HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
  });
  await waitForPort(options.port, async () =>
    proc.exitCode === null ? undefined : `caddy exited ${proc.exitCode}: ${readFileSync(log, "utf8")}`,
  );
  return {
    stop: async () => {
      proc.kill();
      await proc.exited;
    },
  };
}
