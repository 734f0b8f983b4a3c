/**
 * A repository's `<root>/.mcp.json` (docs/mcp.md, "Project servers and trust"): the same schema as
 * the user's mcp.json, read once as bytes, so the servers that may start are exactly the ones of
 * the content whose sha256 the person trusted. A project file never turns the sandbox off: that
 * is the user's decision, in the user's file.
 */

import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { describeError } from "../support/describe-error.ts";
import { isRecord } from "../support/is-record.ts";
import { isStdioServer, type McpServerConfig, parseMcpConfig } from "./mcp-config.ts";
import { projectRoot } from "./project-root.ts";

const MAX_BYTES = 1024 * 1024;

export interface ProjectMcpConfig {
  /** The repository's top-level (real path), the key of its trust. */
  repo: string;
  file: string;
  sha256: string;
  servers: McpServerConfig[];
  /** Per server, the environment variables its `env` or `headers` read (names only). */
  variables: Map<string, string[]>;
}

export type ProjectMcpLoad = { config?: ProjectMcpConfig; warnings: string[] };

export function loadProjectMcpConfig(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): ProjectMcpLoad {
  const repo = projectRoot(cwd);
  const file = join(repo, ".mcp.json");
  const read = readBounded(file);
  if (read.kind === "missing") return { warnings: [] };
  if (read.kind === "refused") return { warnings: [`${file}: ${read.reason}; its MCP servers are not used`] };
  const sha256 = createHash("sha256").update(read.bytes).digest("hex");
  let parsed: unknown;
  try {
    parsed = JSON.parse(read.bytes.toString("utf8"));
  } catch {
    return { warnings: [`${file} is not valid JSON; its MCP servers are not used`] };
  }
  const loaded = parseMcpConfig(parsed, env, file);
  const warnings = [...loaded.warnings];
  const servers = loaded.servers.map((server) => {
    if (!isStdioServer(server) || server.sandbox === undefined) return server;
    warnings.push(
      `${file}: server "${server.name}": "sandbox": "off" is ignored in a project file (only your own mcp.json can run a server outside the sandbox)`,
    );
    const { sandbox: _ignored, ...confined } = server;
    return confined;
  });
  return { config: { repo, file, sha256, servers, variables: variablesOf(parsed) }, warnings };
}

type BoundedRead = { kind: "ok"; bytes: Buffer } | { kind: "missing" } | { kind: "refused"; reason: string };

/** A regular file of at most 1 MiB; a FIFO or device planted as `.mcp.json` never blocks the agent. */
function readBounded(path: string): BoundedRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    if (isRecord(err) && (err.code === "ENOENT" || err.code === "ENOTDIR")) return { kind: "missing" };
    return { kind: "refused", reason: describeError(err) };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { kind: "refused", reason: "it is not a regular file" };
    if (stat.size > MAX_BYTES) return { kind: "refused", reason: "it is larger than 1 MiB" };
    const bytes = Buffer.alloc(MAX_BYTES + 1);
    let length = 0;
    while (length <= MAX_BYTES) {
      const n = readSync(fd, bytes, length, bytes.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > MAX_BYTES) return { kind: "refused", reason: "it is larger than 1 MiB" };
    return { kind: "ok", bytes: bytes.subarray(0, length) };
  } catch (err) {
    return { kind: "refused", reason: describeError(err) };
  } finally {
    closeSync(fd);
  }
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)/g;

/** The `${VAR}` names each entry's env values and headers read: the question names them. */
function variablesOf(parsed: unknown): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const entries = isRecord(parsed) && isRecord(parsed.mcpServers) ? parsed.mcpServers : {};
  for (const [name, entry] of Object.entries(entries)) {
    if (!isRecord(entry)) continue;
    const names = new Set<string>();
    for (const map of [entry.env, entry.headers]) {
      if (!isRecord(map)) continue;
      for (const value of Object.values(map))
        if (typeof value === "string") for (const m of value.matchAll(REFERENCE)) names.add(m[1] ?? "");
    }
    out.set(name, [...names].sort());
  }
  return out;
}
