/**
 * `session_op` (docs/protocol.md §10.1): list / compact / fork on the agent's own session.
 * `args` is one object whose members are op-specific; which member an op requires
 * (fork needs `from_entry_id`) is checked by the handler, which answers INVALID_REQUEST.
 * `from_entry_id` also accepts a message id (`msg_…`): clients only ever see message ids
 * (docs/protocol-additions.md §2).
 * `op: "list"` answers with `SessionListResult` (sessions.ts) for the agent's cwd.
 */
import { type Static, Type } from "@sinclair/typebox";
import { optionalCommandId, routingAgentId } from "./envelope.ts";
import { SessionSummarySchema } from "./sessions.ts";

export const SessionOpNameSchema = Type.Union(
  [Type.Literal("list"), Type.Literal("compact"), Type.Literal("fork")],
  { $id: "SessionOpName" },
);
export type SessionOpName = Static<typeof SessionOpNameSchema>;

export const CompactArgsSchema = Type.Object(
  {
    /** Overrides config.keepRecentTokens for this call. */
    keep_recent_tokens: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { $id: "CompactArgs" },
);
export type CompactArgs = Static<typeof CompactArgsSchema>;

export const ForkArgsSchema = Type.Object(
  {
    from_entry_id: Type.String({
      minLength: 1,
      description:
        "The entry to fork at, or a message id (from sync.live_window or message_complete): the fork ends with that message.",
    }),
  },
  { $id: "ForkArgs" },
);
export type ForkArgs = Static<typeof ForkArgsSchema>;

export const SessionOpArgsSchema = Type.Object(
  {
    ...CompactArgsSchema.properties,
    from_entry_id: Type.Optional(ForkArgsSchema.properties.from_entry_id),
  },
  { $id: "SessionOpArgs" },
);
export type SessionOpArgs = Static<typeof SessionOpArgsSchema>;

export const SessionOpCommandSchema = Type.Object(
  {
    type: Type.Literal("session_op"),
    id: optionalCommandId,
    agent_id: routingAgentId,
    op: SessionOpNameSchema,
    args: Type.Optional(SessionOpArgsSchema),
  },
  { $id: "SessionOpCommand" },
);
export type SessionOpCommand = Static<typeof SessionOpCommandSchema>;

/** Fields shared by a successful compaction's response data and the `compaction` event. */
export const compactionFields = {
  /** 0-based count of compactions in this session. */
  index: Type.Integer({ minimum: 0 }),
  tokens_before: Type.Integer({ minimum: 0 }),
  tokens_after: Type.Integer({ minimum: 0 }),
  first_kept_entry_id: Type.String(),
  /** [firstId, lastId] of the summarized span, for recall. */
  message_range: Type.Tuple([Type.String(), Type.String()]),
};

export const CompactResultSchema = Type.Union(
  [
    Type.Object({ compacted: Type.Literal(true), ...compactionFields }),
    Type.Object({ compacted: Type.Literal(false), reason: Type.Literal("no_safe_cut") }),
  ],
  { $id: "CompactResult" },
);
export type CompactResult = Static<typeof CompactResultSchema>;

export const ForkResultSchema = Type.Object(
  {
    fork_id: Type.String({ minLength: 1 }),
    session_id: Type.String({ minLength: 1 }),
    head_entry_id: Type.String({ minLength: 1 }),
  },
  { $id: "ForkResult" },
);
export type ForkResult = Static<typeof ForkResultSchema>;

/** `op: "list"`: the sessions of the agent's cwd, newest first, and the one it drives. */
export const SessionOpListResultSchema = Type.Object(
  { sessions: Type.Array(SessionSummarySchema), active: Type.String({ minLength: 1 }) },
  { $id: "SessionOpListResult" },
);
export type SessionOpListResult = Static<typeof SessionOpListResultSchema>;

/** Data of `session_op`, by `op`: list, compact or fork. */
export const SessionOpResultSchema = Type.Union(
  [SessionOpListResultSchema, CompactResultSchema, ForkResultSchema],
  { $id: "SessionOpResult" },
);
export type SessionOpResult = Static<typeof SessionOpResultSchema>;
