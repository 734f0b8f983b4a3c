/**
 * The durable half of an agent (docs/architecture.md §7.1, §9.4): `agents/<agent_id>/manifest.json`
 * under `$SHARD_HOME`, written atomically before any runtime starts. A runtime generation
 * is rebuilt from it alone, so a daemon restart lists every agent again.
 */
import { type Static, Type } from "@sinclair/typebox";
import { describeError } from "../../support/describe-error.ts";
import { idPattern } from "../../support/ids.ts";
import { McpServersSchema } from "../../types/mcp-server-config.ts";
import { HeadlessPolicySchema, LaunchPolicySchema } from "../../types/orchestrator.ts";
import { SandboxModeSchema, SandboxPolicySchema } from "../../types/sandbox.ts";
import { schemaCheck } from "../../wire/schema-check.ts";

/**
 * What the agent's Changes view diffs against (src/daemon/changes): its working tree as a
 * commit when its first runtime started, or the fact that it was not in a git repository.
 */
export const AgentBaselineSchema = Type.Union([
  Type.Object({
    kind: Type.Literal("git"),
    commit: Type.String({ pattern: "^[0-9a-f]{40,64}$" }),
    recorded_at: Type.Number(),
  }),
  Type.Object({ kind: Type.Literal("not_git"), recorded_at: Type.Number() }),
]);
export type AgentBaseline = Static<typeof AgentBaselineSchema>;

export const AgentManifestSchema = Type.Object({
  version: Type.Literal(1),
  agent_id: Type.String({ pattern: idPattern("agent") }),
  /** Canonical (realpath) working directory. */
  cwd: Type.String({ minLength: 1 }),
  /** Epoch milliseconds. */
  created_at: Type.Number(),
  /** Set once the first runtime generation has created the session; later ones resume it. */
  session_id: Type.Optional(Type.String({ minLength: 1 })),
  /** `provider/model`, applied when the session is created (a resumed session keeps its own). */
  model: Type.Optional(Type.String({ minLength: 1 })),
  mode: Type.Optional(Type.String({ minLength: 1 })),
  tools: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  headless_policy: HeadlessPolicySchema,
  name: Type.Optional(Type.String()),
  parent_agent_id: Type.Optional(Type.String({ minLength: 1 })),
  /** Managed children (src/daemon/jobs): nesting depth (0 = top level) and what it may launch. */
  depth: Type.Optional(Type.Integer({ minimum: 0 })),
  launch_policy: Type.Optional(LaunchPolicySchema),
  /** Display identity of a managed child; never an id. */
  alias: Type.Optional(Type.String()),
  definition_name: Type.Optional(Type.String()),
  display_name: Type.Optional(Type.String()),
  baseline: Type.Optional(AgentBaselineSchema),
  /**
   * The sandbox asked for at creation (`agent.create`, or clamped to the parent's for a child).
   * The mode applies when the session is created; the session records it and any `set_sandbox`
   * after, so a later generation resumes with the session's. Policy and hosts go to every one.
   */
  sandbox: Type.Optional(SandboxModeSchema),
  sandbox_policy: Type.Optional(SandboxPolicySchema),
  network_allow: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  /**
   * USD the agent may spend (`agent.create`), applied when the session is created; the session
   * records it and any `set_budget` after, so a later generation resumes with the session's.
   */
  budget_usd: Type.Optional(Type.Number({ minimum: 0 })),
  /** Where its runtimes run (docs/placements.md): a placements.json name; absent is `local`. */
  placement: Type.Optional(Type.String({ minLength: 1 })),
  /**
   * MCP servers of this agent beside `$SHARD_HOME/mcp.json`'s (`agent.create`'s `mcp_servers`):
   * every generation gets them as `--mcp-config` (agent-mcp-config.ts). The file is owner-only.
   */
  mcp_servers: Type.Optional(McpServersSchema),
  /** Deleted when its creating connection closes (or, after a daemon crash, at the next start). */
  ephemeral: Type.Optional(Type.Literal(true)),
  /** A managed child's parent span (W3C traceparent): its runtimes get it as TRACEPARENT (docs/telemetry.md). */
  traceparent: Type.Optional(Type.String({ minLength: 1 })),
});
export type AgentManifest = Static<typeof AgentManifestSchema>;

const manifestCheck = schemaCheck(AgentManifestSchema);

/** A parsed manifest, or why the file cannot be used (the caller logs it and skips the agent). */
export function parseManifest(
  text: string,
): { ok: true; manifest: AgentManifest } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `bad JSON: ${describeError(err)}` };
  }
  if (manifestCheck.check(value)) return { ok: true, manifest: value };
  const first = manifestCheck.firstError(value);
  return {
    ok: false,
    reason: `${first?.path || "(manifest)"}: ${first?.message ?? "does not match its schema"}`,
  };
}

export const AGENT_ID_PATTERN = new RegExp(idPattern("agent"));
