/**
 * The real `@modelcontextprotocol/server-everything` for the MCP tests: its entry point, a
 * `$SHARD_HOME/mcp.json` that starts it over stdio, and the server's processes found by a marker
 * argument (it ignores arguments after the transport name), so a test can kill the one it started.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const EVERYTHING = resolve(
  import.meta.dir,
  "../../node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);

export function writeMcpConfig(home: string, servers: Record<string, unknown>): void {
  writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: servers }));
}

/** A stdio entry for server-everything, run by this bun, tagged with `marker`. */
export function everythingStdio(
  marker: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { command: process.execPath, args: [EVERYTHING, "stdio", marker], ...extra };
}

/** The programs (argv[0]) of the processes whose command line holds `marker`. */
export function programsWith(marker: string): string[] {
  return pidsWith(marker).flatMap((pid) => {
    try {
      return [readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0] ?? ""];
    } catch {
      return [];
    }
  });
}

/** Pids of the processes whose command line holds `marker` (the server, and bwrap around it). */
export function pidsWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (cmdline.split("\0").includes(marker)) pids.push(Number(entry));
    } catch {
      // gone already
    }
  }
  return pids;
}

/** The environment of a `shard run` against the mock model, with `home` as HOME and SHARD_HOME. */
export function runEnv(home: string, llmUrl: string): Record<string, string> {
  return {
    HOME: home,
    SHARD_HOME: home,
    OPENAI_BASE_URL: `${llmUrl}/v1`,
    SHARD_MODEL: "openai/anything",
    SHARD_RETRY_BASE_MS: "5",
  };
}
