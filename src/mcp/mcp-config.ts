/**
 * The user's MCP servers: `$SHARD_HOME/mcp.json`, in the shape the ecosystem uses,
 * `{"mcpServers": {"name": {"command", "args", "env"} | {"url", "headers"}}}`. A bad entry is a
 * warning naming the server and the field, and only that server is skipped. Values of `env` and
 * `headers` (after `${VAR}` expansion) are secrets: no message here ever quotes them.
 * A project's `.mcp.json` is parsed with the same schema by project-config.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Static, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { isSecretName } from "../sandbox/confined-env.ts";
import { describeError } from "../support/describe-error.ts";
import { isRecord } from "../support/is-record.ts";
import { McpHttpServerSchema, McpStdioServerSchema } from "../types/mcp-server-config.ts";
import { expandVars } from "./expand-vars.ts";

/** Letters, digits, `-` and single `_`: a tool name `mcp__<server>__<tool>` splits one way only. */
export const SERVER_NAME = /^[A-Za-z0-9-]+(_[A-Za-z0-9-]+)*$/;
const MAX_SERVER_NAME = 32;

/** The entry shapes, shared with the wire (`agent.create`'s `mcp_servers`). */
export const StdioServerSchema = McpStdioServerSchema;
export const HttpServerSchema = McpHttpServerSchema;

/**
 * `secrets`: every header value, and the `env` values that came from a `${VAR}` or sit under a
 * secret-looking name: what messages and results from this server are scrubbed of.
 */
export type StdioServerConfig = Static<typeof StdioServerSchema> & {
  name: string;
  env: Record<string, string>;
  secrets: string[];
};
export type HttpServerConfig = Static<typeof HttpServerSchema> & {
  name: string;
  headers: Record<string, string>;
  secrets: string[];
};
export type McpServerConfig = StdioServerConfig | HttpServerConfig;

export interface McpConfig {
  servers: McpServerConfig[];
  warnings: string[];
}

export function mcpConfigPath(home: string): string {
  return join(home, "mcp.json");
}

export function loadMcpConfig(home: string, env: Readonly<Record<string, string | undefined>>): McpConfig {
  return loadMcpConfigFile(mcpConfigPath(home), env);
}

/** A file in mcp.json's shape; a missing one configures nothing. */
export function loadMcpConfigFile(
  path: string,
  env: Readonly<Record<string, string | undefined>>,
): McpConfig {
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
  } catch (err) {
    const missing = isRecord(err) && err.code === "ENOENT";
    return { servers: [], warnings: missing ? [] : [`${path}: ${describeError(err)}; no MCP servers`] };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    // JSON.parse's message quotes the text around the fault, which may be a secret.
    return { servers: [], warnings: [`${path} is not valid JSON; no MCP servers`] };
  }
  return parseMcpConfig(parsed, env, path);
}

export function parseMcpConfig(
  parsed: unknown,
  env: Readonly<Record<string, string | undefined>>,
  path: string,
): McpConfig {
  const servers: McpServerConfig[] = [];
  const warnings: string[] = [];
  const entries = isRecord(parsed) ? parsed.mcpServers : undefined;
  if (entries === undefined) {
    if (!isRecord(parsed)) warnings.push(`${path}: must be an object with an "mcpServers" object`);
    return { servers, warnings };
  }
  if (!isRecord(entries)) return { servers, warnings: [`${path}: "mcpServers" must be an object`] };
  for (const [name, entry] of Object.entries(entries)) {
    const checked = parseServer(name, entry, env);
    if (checked.ok) servers.push(checked.server);
    else warnings.push(`${path}: server "${printableName(name)}": ${checked.reason}; it is skipped`);
  }
  return { servers, warnings };
}

type ServerCheck = { ok: true; server: McpServerConfig } | { ok: false; reason: string };

function parseServer(
  name: string,
  entry: unknown,
  env: Readonly<Record<string, string | undefined>>,
): ServerCheck {
  if (name.length > MAX_SERVER_NAME || !SERVER_NAME.test(name))
    return {
      ok: false,
      reason: `the name must be at most ${MAX_SERVER_NAME} letters, digits, "-" or single "_"`,
    };
  if (!isRecord(entry)) return { ok: false, reason: "must be an object" };
  if ("command" in entry === "url" in entry)
    return { ok: false, reason: 'needs either "command" (a stdio server) or "url" (Streamable HTTP)' };
  if ("command" in entry) {
    const bad = firstError(StdioServerSchema, entry);
    if (bad !== undefined) return { ok: false, reason: bad };
    if (!Value.Check(StdioServerSchema, entry)) return { ok: false, reason: "does not match the schema" };
    const expanded = expandMap(entry.env ?? {}, "env", env);
    if (!expanded.ok) return expanded;
    return { ok: true, server: { ...entry, name, env: expanded.map, secrets: expanded.secrets } };
  }
  const bad = firstError(HttpServerSchema, entry);
  if (bad !== undefined) return { ok: false, reason: bad };
  if (!Value.Check(HttpServerSchema, entry)) return { ok: false, reason: "does not match the schema" };
  if (!isHttpUrl(entry.url)) return { ok: false, reason: "url must be an http:// or https:// URL" };
  const expanded = expandMap(entry.headers ?? {}, "headers", env);
  if (!expanded.ok) return expanded;
  return { ok: true, server: { ...entry, name, headers: expanded.map, secrets: expanded.secrets } };
}

/** The first schema violation as `field: what was expected`; the value itself is never quoted. */
function firstError(schema: TSchema, value: unknown): string | undefined {
  const first = Value.Errors(schema, value).First();
  if (first === undefined) return undefined;
  const field = first.path === "" ? "(entry)" : first.path.slice(1).replaceAll("/", ".");
  return `${field}: ${first.message}`;
}

function expandMap(
  map: Record<string, string>,
  field: "env" | "headers",
  env: Readonly<Record<string, string | undefined>>,
): { ok: true; map: Record<string, string>; secrets: string[] } | { ok: false; reason: string } {
  const out: Record<string, string> = {};
  const secrets: string[] = [];
  for (const [key, value] of Object.entries(map)) {
    const expanded = expandVars(value, env);
    if (!expanded.ok)
      return { ok: false, reason: `${field}.${key} uses \${${expanded.missing}}, which is not set` };
    out[key] = expanded.value;
    if (field === "headers" || value.includes("${") || isSecretName(key)) secrets.push(expanded.value);
  }
  return { ok: true, map: out, secrets };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** A refused name is shown escaped and cut short: it comes from a file, not from us. */
function printableName(name: string): string {
  const cut = name.length > 40 ? `${name.slice(0, 40)}…` : name;
  return JSON.stringify(cut).slice(1, -1);
}

export function isStdioServer(server: McpServerConfig): server is StdioServerConfig {
  return "command" in server;
}
