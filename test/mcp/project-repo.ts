/**
 * A real git repository for the project-trust tests, whose `.mcp.json` runs server-everything
 * through `sh`, which first touches a marker file: the marker exists once the server ran.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../agent/support/agent-process.ts";
import { EVERYTHING } from "./support.ts";

let count = 0;

export interface Repo {
  root: string;
  /** The agent's cwd: a folder inside the repository, so the file is found at the top-level. */
  cwd: string;
  marker: string;
  tag: string;
}

/** A real git repository whose `.mcp.json` starts server-everything after touching a marker. */
export function repository(extra: Record<string, unknown> = {}): Repo {
  const root = tempDir("repo");
  Bun.spawnSync(["git", "init", "-q", root]);
  const cwd = join(root, "src");
  mkdirSync(cwd);
  const marker = join(cwd, "marker");
  const tag = `shard-mcp-project-${process.pid}-${++count}`;
  writeProjectFile(root, {
    everything: {
      command: "sh",
      args: ["-c", `touch ${marker}; exec "$0" "$@"`, process.execPath, EVERYTHING, "stdio", tag],
      env: { PROJECT_TOKEN: "s3cret-value" },
      ...extra,
    },
  });
  return { root, cwd, marker, tag };
}

export function writeProjectFile(root: string, servers: Record<string, unknown>): void {
  writeFileSync(join(root, ".mcp.json"), JSON.stringify({ mcpServers: servers }));
}
