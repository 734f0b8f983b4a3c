/**
 * Persisted grant rule kinds and their matchers (docs/permissions.md). Rules are interpreted only
 * by matchers registered here by kind; an unknown kind or a malformed rule never allows anything.
 */

import { isRecord } from "../support/is-record.ts";
import {
  analyzeBashCommand,
  type BashAnalysis,
  type CommandSignature,
  sameSignature,
} from "./bash-signature.ts";
import { canonicalJson, sha256Hex } from "./canonical-json.ts";

/** "Repeat this exact request": the legacy `allow_always`. */
export interface ExactRule {
  kind: "exact";
  tool: string;
  /** sha256 of the canonical request (see `exactRequestHash`). */
  input_sha256: string;
  /** Human-readable reminder for someone auditing the file; never consulted for matching. */
  display?: string;
  created_at?: string;
}

/**
 * Runtime-grant-only, for the `bash` tool (docs/permissions.md). Version 2, the one written
 * now: executable, subcommand and an exact sorted flag set. Version 1 (no subcommand), written
 * by older runtimes, still matches, but only commands that have no subcommand.
 */
export interface BashSignatureRule {
  kind: "bash_signature";
  version: 2;
  signatures: CommandSignature[];
  created_at?: string;
}

/** One MCP tool, any arguments (docs/mcp.md). Matches only a tool named `mcp__…`. */
export interface McpToolRule {
  kind: "mcp_tool";
  tool: string;
  created_at?: string;
}

/** Every tool of one MCP server, any arguments: the tools named `mcp__<server>__…`. */
export interface McpServerRule {
  kind: "mcp_server";
  server: string;
  created_at?: string;
}

export type GrantRule = ExactRule | BashSignatureRule | McpToolRule | McpServerRule;

/** A tool call as the matchers see it, with the expensive parts computed once. */
export interface GrantRequest {
  toolName: string;
  /** Hashed when an exact rule for this tool first asks: most decisions meet none. */
  inputHash(): string;
  /** Present for the `bash` tool when `args.command` is a string. */
  bash: BashAnalysis | undefined;
}

export function describeRequest(
  toolName: string,
  args: Record<string, unknown>,
  resolvedPaths: string[],
): GrantRequest {
  const command = toolName === "bash" ? args.command : undefined;
  let hash: string | undefined;
  return {
    toolName,
    inputHash: () => {
      hash ??= exactRequestHash(toolName, args, resolvedPaths);
      return hash;
    },
    bash: typeof command === "string" ? analyzeBashCommand(command) : undefined,
  };
}

/**
 * The exact request is the canonical args (sorted keys) plus where its paths resolved to, so
 * an exact grant stops matching if a symlink is later re-pointed somewhere else.
 */
export function exactRequestHash(
  toolName: string,
  args: Record<string, unknown>,
  resolvedPaths: string[],
): string {
  return sha256Hex(canonicalJson({ tool: toolName, input: args, resolved_paths: resolvedPaths }));
}

type RuleMatcher = (rule: Record<string, unknown>, request: GrantRequest) => boolean;

function matchesExact(rule: Record<string, unknown>, request: GrantRequest): boolean {
  return (
    typeof rule.tool === "string" &&
    typeof rule.input_sha256 === "string" &&
    /^[0-9a-f]{64}$/.test(rule.input_sha256) &&
    rule.tool === request.toolName &&
    rule.input_sha256 === request.inputHash()
  );
}

function matchesBashSignature(rule: Record<string, unknown>, request: GrantRequest): boolean {
  if ((rule.version !== 1 && rule.version !== 2) || request.toolName !== "bash" || !request.bash?.ok) {
    return false;
  }
  const granted = parseSignatures(rule.signatures, rule.version);
  if (!granted) return false;
  return request.bash.signatures.every((sig) => granted.some((g) => sameSignature(g, sig)));
}

function matchesMcpTool(rule: Record<string, unknown>, request: GrantRequest): boolean {
  return typeof rule.tool === "string" && rule.tool.startsWith("mcp__") && rule.tool === request.toolName;
}

/**
 * Server names never hold `__` (src/mcp/mcp-config.ts), so `mcp__<server>__` is a prefix of
 * that server's tools only.
 */
function matchesMcpServer(rule: Record<string, unknown>, request: GrantRequest): boolean {
  return (
    typeof rule.server === "string" &&
    /^[A-Za-z0-9-]+(_[A-Za-z0-9-]+)*$/.test(rule.server) &&
    request.toolName.startsWith(`mcp__${rule.server}__`)
  );
}

/** Strictly validated: a hand-edited or corrupted list is rejected whole, never partly trusted. */
function parseSignatures(value: unknown, version: 1 | 2): CommandSignature[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const parsed: CommandSignature[] = [];
  for (const item of value) {
    if (!isRecord(item) || typeof item.executable !== "string" || item.executable === "") return undefined;
    const flags = sortedFlags(item.flags);
    // A v1 record has no subcommand: it reads as "no subcommand", so `git [-s]` from v1 no
    // longer covers `git push -s`, which v1 used to allow.
    const subcommand =
      version === 1 ? (item.subcommand === undefined ? [] : undefined) : words(item.subcommand);
    if (!flags || !subcommand) return undefined;
    parsed.push({ executable: item.executable, subcommand, flags });
  }
  return parsed;
}

function sortedFlags(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const flags: string[] = [];
  for (const flag of value) {
    if (typeof flag !== "string" || !flag.startsWith("-")) return undefined;
    const previous = flags[flags.length - 1];
    if (previous !== undefined && !(previous < flag)) return undefined;
    flags.push(flag);
  }
  return flags;
}

/** A subcommand: at most two non-empty words, none of them an option. */
function words(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length > 2) return undefined;
  const result: string[] = [];
  for (const word of value) {
    if (typeof word !== "string" || word === "" || word.startsWith("-")) return undefined;
    result.push(word);
  }
  return result;
}

const ruleMatchers: ReadonlyMap<string, RuleMatcher> = new Map<string, RuleMatcher>([
  ["exact", matchesExact],
  ["bash_signature", matchesBashSignature],
  ["mcp_tool", matchesMcpTool],
  ["mcp_server", matchesMcpServer],
]);

/** Fail closed: anything that is not a well-formed rule of a registered kind allows nothing. */
export function ruleAllows(rule: unknown, request: GrantRequest): boolean {
  if (!isRecord(rule) || typeof rule.kind !== "string") return false;
  const matcher = ruleMatchers.get(rule.kind);
  if (!matcher) return false;
  try {
    return matcher(rule, request) === true;
  } catch {
    return false;
  }
}
