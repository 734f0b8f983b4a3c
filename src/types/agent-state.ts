/** An agent's live state as every client sees it: its status and token usage. */
import { type Static, Type } from "@sinclair/typebox";

export const UsageSchema = Type.Object(
  {
    input: Type.Number(),
    output: Type.Number(),
    cache_read: Type.Optional(Type.Number()),
    cache_write: Type.Optional(Type.Number()),
    /** USD of the priced calls; absent when no call had a price. */
    cost: Type.Optional(Type.Number()),
    /**
     * Additive (protocol-additions §22): some call had no price in the catalog, so the cost is
     * unknown (in part when `cost` is also present): shown as unknown, never as 0.
     */
    cost_unknown: Type.Optional(Type.Boolean()),
    context_tokens: Type.Optional(Type.Number()),
    model: Type.Optional(Type.String()),
  },
  { $id: "Usage" },
);
export type Usage = Static<typeof UsageSchema>;

export const AgentStatusSchema = Type.Union(
  [
    Type.Literal("idle"),
    Type.Literal("streaming"),
    Type.Literal("waiting_for_permission"),
    Type.Literal("waiting_for_ui"),
    Type.Literal("compacting"),
    Type.Literal("error"),
  ],
  { $id: "AgentStatus" },
);
export type AgentStatus = Static<typeof AgentStatusSchema>;
