/**
 * What a client is told about an agent's MCP servers (docs/mcp.md, protocol-additions §19):
 * each server's state and tool count. Never its command, URL, env or headers, and an error is
 * scrubbed of the server's secrets before it gets here.
 */
import { type Static, Type } from "@sinclair/typebox";
import { eventSeq, routingAgentId } from "./envelope.ts";

/** `starting`: being started; `ready`: its tools are offered; `failed`: not running (`error` says why). */
export const McpServerStateSchema = Type.Union(
  [Type.Literal("starting"), Type.Literal("ready"), Type.Literal("failed")],
  { $id: "McpServerState" },
);
export type McpServerState = Static<typeof McpServerStateSchema>;

export const McpServerStatusSchema = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    state: McpServerStateSchema,
    /** The tools offered to the model now (kept while a crashed server restarts). */
    tools: Type.Integer({ minimum: 0 }),
    /** The last start failure or crash, secrets redacted; with `failed` only. */
    error: Type.Optional(Type.String()),
  },
  { $id: "McpServerStatus" },
);
export type McpServerStatus = Static<typeof McpServerStatusSchema>;

/** Additive (protocol-additions §19): an agent's MCP servers changed state or tool count. */
export const McpStatusEventSchema = Type.Object(
  {
    type: Type.Literal("mcp_status"),
    agent_id: routingAgentId,
    seq: eventSeq,
    servers: Type.Array(McpServerStatusSchema),
  },
  { $id: "McpStatusEvent" },
);
export type McpStatusEvent = Static<typeof McpStatusEventSchema>;
