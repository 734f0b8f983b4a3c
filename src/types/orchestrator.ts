/**
 * Orchestrator registry commands (docs/protocol.md §10.2) and their `response.data`. Daemon
 * connections only; `agent_id` here names the target agent as payload, not as routing.
 */
import { type Static, Type } from "@sinclair/typebox";
import { AgentInfoSchema } from "./agent-info.ts";
import { AgentStatusSchema } from "./agent-state.ts";
import { payloadAgentId, requiredCommandId } from "./envelope.ts";
import { McpServersSchema } from "./mcp-server-config.ts";
import { SandboxModeSchema, SandboxPolicySchema } from "./sandbox.ts";

export const AgentListCommandSchema = Type.Object(
  { type: Type.Literal("agent.list"), id: requiredCommandId },
  { $id: "AgentListCommand" },
);
export type AgentListCommand = Static<typeof AgentListCommandSchema>;

/** What decides a permission or UI request while no interactive client can answer it. */
export const HEADLESS_POLICIES = ["deny", "allow_if_rule_matches", "queue"] as const;

export const HeadlessPolicySchema = Type.Union(
  HEADLESS_POLICIES.map((policy) => Type.Literal(policy)),
  { $id: "HeadlessPolicy" },
);
export type HeadlessPolicy = Static<typeof HeadlessPolicySchema>;

export const LaunchPolicySchema = Type.Object(
  { maxTasks: Type.Integer({ minimum: 0 }), maxDepth: Type.Integer({ minimum: 0 }) },
  { $id: "LaunchPolicy" },
);
export type LaunchPolicy = Static<typeof LaunchPolicySchema>;

export const AgentCreateCommandSchema = Type.Object(
  {
    type: Type.Literal("agent.create"),
    id: requiredCommandId,
    cwd: Type.String({ minLength: 1 }),
    /** Opaque legacy session to adopt; the daemon resolves ownership and path. */
    session_id: Type.Optional(Type.String({ minLength: 1 })),
    model: Type.Optional(Type.String()),
    provider: Type.Optional(Type.String()),
    mode: Type.Optional(Type.String()),
    tools: Type.Optional(Type.Array(Type.String())),
    skills: Type.Optional(Type.Array(Type.String())),
    headless_policy: Type.Optional(HeadlessPolicySchema),
    name: Type.Optional(Type.String()),
    // Managed-child manifest fields: set by the daemon's subagent coordinator. From a client,
    // parent_agent_id, depth, launch_policy and alias are refused (INVALID_REQUEST).
    parent_agent_id: Type.Optional(Type.String({ minLength: 1 })),
    system_prompt: Type.Optional(Type.String()),
    depth: Type.Optional(Type.Integer({ minimum: 0 })),
    launch_policy: Type.Optional(LaunchPolicySchema),
    alias: Type.Optional(Type.String()),
    definition_name: Type.Optional(Type.String()),
    display_name: Type.Optional(Type.String()),
    /** Pinned friendly-alias pool for this child's launches. */
    names: Type.Optional(Type.Array(Type.String())),
    /**
     * Our addition (docs/protocol-additions.md §15): the agent is deleted when the connection
     * that created it closes — a script's agent does not outlive the script.
     */
    ephemeral: Type.Optional(Type.Boolean()),
    /**
     * Our addition (docs/protocol-additions.md §18): the agent's sandbox, like `shard agent
     * --sandbox`, `--sandbox-policy` and `--allow-host`; omitted fields come from the daemon's
     * environment and `$SHARD_HOME/config.json`. A child never runs looser than its parent.
     */
    sandbox: Type.Optional(SandboxModeSchema),
    sandbox_policy: Type.Optional(SandboxPolicySchema),
    /** Hosts reachable through the sandbox's filtering proxy (`example.org`, `*.example.org`). */
    network_allow: Type.Optional(Type.Array(Type.String())),
    /**
     * Our addition (protocol-additions §22): USD the agent may spend over its session, like
     * `shard agent --budget-usd`; past it the turn stops with BUDGET_EXCEEDED (`set_budget` raises it).
     */
    budget_usd: Type.Optional(Type.Number({ minimum: 0, maximum: 1_000_000 })),
    /**
     * Our addition (docs/protocol-additions.md §24): where the runtime runs, a placement of
     * `$SHARD_HOME/placements.json` (docs/placements.md); default `local`, this machine. On
     * another placement `cwd` is a path on that placement's filesystem.
     */
    placement: Type.Optional(Type.String({ minLength: 1 })),
    /**
     * Our addition (docs/protocol-additions.md §25): more MCP servers for this agent, beside
     * `$SHARD_HOME/mcp.json`'s, in its `mcpServers` shape (an editor's, from `shard acp
     * --daemon`). Starting one runs a command on the daemon's host: unix-socket clients only.
     */
    mcp_servers: Type.Optional(McpServersSchema),
  },
  { $id: "AgentCreateCommand" },
);
export type AgentCreateCommand = Static<typeof AgentCreateCommandSchema>;

export const AttachRoleSchema = Type.Union([Type.Literal("interactive"), Type.Literal("observer")], {
  $id: "AttachRole",
});
export type AttachRole = Static<typeof AttachRoleSchema>;

/** A kind of request a client answers: `permission_request` or `ui_request`. */
export const RequestKindSchema = Type.Union([Type.Literal("permission"), Type.Literal("ui")], {
  $id: "RequestKind",
});
export type RequestKind = Static<typeof RequestKindSchema>;

export const AgentAttachCommandSchema = Type.Object(
  {
    type: Type.Literal("agent.attach"),
    id: requiredCommandId,
    agent_id: payloadAgentId,
    /** Default interactive; observers never answer permission/UI requests. */
    role: Type.Optional(AttachRoleSchema),
    /**
     * Additive: the request kinds an interactive attachment answers (default both). A kind left
     * out does not count it as a responder, so with nobody else the headless policy answers.
     * Sending `agent.attach` again on the same connection updates it (and re-sends `sync`).
     */
    answers: Type.Optional(Type.Array(RequestKindSchema, { maxItems: 2, uniqueItems: true })),
    /**
     * Additive (protocol-additions §26): this client answers the agent's `client_read_request`s
     * (an editor's unsaved buffers). Unix-socket clients only, interactive only; the latest to
     * declare it is the agent's one reader. Re-attaching without it gives the role up.
     */
    serves_reads: Type.Optional(Type.Boolean()),
  },
  { $id: "AgentAttachCommand" },
);
export type AgentAttachCommand = Static<typeof AgentAttachCommandSchema>;

export const AgentDetachCommandSchema = Type.Object(
  { type: Type.Literal("agent.detach"), id: requiredCommandId, agent_id: payloadAgentId },
  { $id: "AgentDetachCommand" },
);
export type AgentDetachCommand = Static<typeof AgentDetachCommandSchema>;

export const AgentTerminateCommandSchema = Type.Object(
  { type: Type.Literal("agent.terminate"), id: requiredCommandId, agent_id: payloadAgentId },
  { $id: "AgentTerminateCommand" },
);
export type AgentTerminateCommand = Static<typeof AgentTerminateCommandSchema>;

export const AgentKillCommandSchema = Type.Object(
  {
    type: Type.Literal("agent.kill"),
    id: requiredCommandId,
    agent_id: payloadAgentId,
    force: Type.Optional(Type.Boolean()),
  },
  { $id: "AgentKillCommand" },
);
export type AgentKillCommand = Static<typeof AgentKillCommandSchema>;

/** Omit `agent_id` to poll every agent. */
export const AgentStatusCommandSchema = Type.Object(
  {
    type: Type.Literal("agent.status"),
    id: requiredCommandId,
    agent_id: Type.Optional(payloadAgentId),
  },
  { $id: "AgentStatusCommand" },
);
export type AgentStatusCommand = Static<typeof AgentStatusCommandSchema>;

/** Graceful by default (turns finish); `force` kills immediately. */
export const DaemonShutdownCommandSchema = Type.Object(
  { type: Type.Literal("daemon.shutdown"), id: requiredCommandId, force: Type.Optional(Type.Boolean()) },
  { $id: "DaemonShutdownCommand" },
);
export type DaemonShutdownCommand = Static<typeof DaemonShutdownCommandSchema>;

export const AgentListResultSchema = Type.Object(
  { agents: Type.Array(AgentInfoSchema) },
  { $id: "AgentListResult" },
);
export type AgentListResult = Static<typeof AgentListResultSchema>;

/** The one agent asked for, or every agent when `agent_id` was omitted. */
export const AgentStatusResultSchema = Type.Object(
  { agents: Type.Array(AgentInfoSchema) },
  { $id: "AgentStatusResult" },
);
export type AgentStatusResult = Static<typeof AgentStatusResultSchema>;

export const AgentCreateResultSchema = Type.Object(
  { agent_id: payloadAgentId },
  { $id: "AgentCreateResult" },
);
export type AgentCreateResult = Static<typeof AgentCreateResultSchema>;

export const AgentAttachResultSchema = Type.Object(
  { status: AgentStatusSchema, info: AgentInfoSchema },
  { $id: "AgentAttachResult" },
);
export type AgentAttachResult = Static<typeof AgentAttachResultSchema>;

/** `deferred: true`: active work finishes before the runtime stops. */
export const AgentTerminateResultSchema = Type.Object(
  { deferred: Type.Boolean() },
  { $id: "AgentTerminateResult" },
);
export type AgentTerminateResult = Static<typeof AgentTerminateResultSchema>;

export const AgentDetachResultSchema = Type.Object({}, { $id: "AgentDetachResult" });
export type AgentDetachResult = Static<typeof AgentDetachResultSchema>;

/** Answered once the runtime's process group is gone. */
export const AgentKillResultSchema = Type.Object({}, { $id: "AgentKillResult" });
export type AgentKillResult = Static<typeof AgentKillResultSchema>;

/** Answered before the daemon starts to shut down. */
export const DaemonShutdownResultSchema = Type.Object({}, { $id: "DaemonShutdownResult" });
export type DaemonShutdownResult = Static<typeof DaemonShutdownResultSchema>;
