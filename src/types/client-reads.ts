/**
 * Reads served by the client (protocol-additions §26): a runtime started with `--client-reads`
 * asks its client for a file's text before its `read` tool reads the disk, so an editor's
 * unsaved buffer is what the model sees (`shard acp`, docs/acp.md). Only for a path the gate
 * has already allowed and that lies inside the agent's cwd.
 */
import { type Static, Type } from "@sinclair/typebox";
import { eventSeq, routingAgentId } from "./envelope.ts";

/** The most text a client's answer may carry (4 MiB); a larger one is ignored and the disk is read. */
export const MAX_CLIENT_READ_CHARS = 4 * 1024 * 1024;

export const ClientReadRequestEventSchema = Type.Object(
  {
    type: Type.Literal("client_read_request"),
    agent_id: routingAgentId,
    seq: eventSeq,
    request_id: Type.String({ minLength: 1 }),
    /** Absolute real path, inside the agent's cwd. */
    path: Type.String({ minLength: 1 }),
  },
  { $id: "ClientReadRequestEvent" },
);
export type ClientReadRequestEvent = Static<typeof ClientReadRequestEventSchema>;

export const ClientReadResponseCommandSchema = Type.Object(
  {
    type: Type.Literal("client_read_response"),
    id: Type.Optional(Type.String()),
    agent_id: Type.Optional(Type.String({ minLength: 1 })),
    request_id: Type.String({ minLength: 1 }),
    /** The file's text as the client holds it. Absent (or with `error`): the runtime reads the disk. */
    content: Type.Optional(Type.String({ maxLength: MAX_CLIENT_READ_CHARS })),
    /** Why the client could not serve it (no such buffer, not a text file…). */
    error: Type.Optional(Type.String()),
  },
  { $id: "ClientReadResponseCommand" },
);
export type ClientReadResponseCommand = Static<typeof ClientReadResponseCommandSchema>;

export const ClientReadResponseResultSchema = Type.Object({}, { $id: "ClientReadResponseResult" });
export type ClientReadResponseResult = Static<typeof ClientReadResponseResultSchema>;
