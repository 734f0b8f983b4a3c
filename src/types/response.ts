/**
 * The `response` envelope (docs/protocol.md §9). `success: false` must carry `error` and
 * `success: true` must not: the validator checks that pairing, not this schema.
 */
import { type Static, Type } from "@sinclair/typebox";
import { routingAgentId } from "./envelope.ts";
import { WireErrorSchema } from "./errors.ts";

export const ResponseSchema = Type.Object(
  {
    type: Type.Literal("response"),
    /** Echoes the command's id; absent only when the command carried none (protocol-additions.md). */
    id: Type.Optional(Type.String()),
    /** Additive: set on daemon connections when answering a per-agent command. */
    agent_id: routingAgentId,
    /** The `type` of the command being answered. */
    command: Type.String(),
    success: Type.Boolean(),
    data: Type.Optional(Type.Unknown()),
    error: Type.Optional(WireErrorSchema),
  },
  { $id: "Response" },
);
export type Response = Static<typeof ResponseSchema>;
