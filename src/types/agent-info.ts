/** Registry view of a durable agent (docs/protocol.md, `AgentInfo`) and its runtime lifecycle. */
import { type Static, Type } from "@sinclair/typebox";
import { AgentStatusSchema, UsageSchema } from "./agent-state.ts";
import { payloadAgentId } from "./envelope.ts";
import { McpServerStatusSchema } from "./mcp-status.ts";
import { SandboxStateSchema } from "./sandbox.ts";

/**
 * Lifecycle of the agent's current Runtime generation (docs/protocol.md §2, §5.4; pinned by us,
 * docs/protocol-additions.md). `stopped`: no live process (never started, reaped, terminated
 * or killed; restored on demand). `starting`: a generation is spawning and not yet at
 * hello + sync. `running`: ready and serving. `stopping`: terminate/shutdown accepted,
 * finishing active work. `failed`: the generation exited unexpectedly or failed to start
 * (RUNTIME_START_FAILED); identity is kept and a retry is safe.
 */
export const RuntimeStateSchema = Type.Union(
  [
    Type.Literal("stopped"),
    Type.Literal("starting"),
    Type.Literal("running"),
    Type.Literal("stopping"),
    Type.Literal("failed"),
  ],
  { $id: "RuntimeState" },
);
export type RuntimeState = Static<typeof RuntimeStateSchema>;

export const AgentInfoSchema = Type.Object(
  {
    agent_id: payloadAgentId,
    name: Type.Optional(Type.String()),
    cwd: Type.String(),
    model: Type.Optional(Type.String()),
    provider: Type.Optional(Type.String()),
    mode: Type.Optional(Type.String()),
    status: AgentStatusSchema,
    runtime_state: RuntimeStateSchema,
    /** Epoch milliseconds. */
    created_at: Type.Number(),
    usage: Type.Optional(UsageSchema),
    /** Present if a subagent. */
    parent_agent_id: Type.Optional(Type.String({ minLength: 1 })),
    /** Durable parent-scoped friendly alias (display-only; never an id). */
    alias: Type.Optional(Type.String()),
    /** Definition name this agent was launched from. */
    definition_name: Type.Optional(Type.String()),
    /** Derived `definition_name · alias` display string. */
    display_name: Type.Optional(Type.String()),
    /**
     * Additive (protocol-additions §18): the sandbox its commands run in — the runtime's own
     * report while it runs, else what its manifest asks for.
     */
    sandbox: Type.Optional(SandboxStateSchema),
    /** Additive (protocol-additions §19): its MCP servers, from the running runtime's snapshot. */
    mcp_servers: Type.Optional(Type.Array(McpServerStatusSchema)),
    /** Additive (protocol-additions §24): where its runtime runs, `local` or a placement's name. */
    placement: Type.Optional(Type.String({ minLength: 1 })),
  },
  { $id: "AgentInfo" },
);
export type AgentInfo = Static<typeof AgentInfoSchema>;
