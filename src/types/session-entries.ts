/**
 * The lines of a session file (docs/sessions.md, docs/architecture.md §9.2): a header, then one
 * entry per line. TypeBox schemas are the single source, as for the wire types: the static types
 * come from `Static<>`, and every line is checked against the compiled schema when a session
 * is opened (src/session/session-line-checks.ts). Objects stay open to extra fields, so a file
 * written by a newer Shard with an additive field still opens.
 */
import { type Static, Type } from "@sinclair/typebox";
import { MessageSchema } from "./messages.ts";
import { SandboxModeSchema } from "./sandbox.ts";
import { ForkProvenanceSchema } from "./sessions.ts";
import { turnFailureFields } from "./turn-failures.ts";

export const SessionHeaderSchema = Type.Object(
  {
    type: Type.Literal("session"),
    version: Type.Literal(1),
    session_id: Type.String({ minLength: 1 }),
    cwd: Type.String(),
    created_at: Type.Number(),
    /** The mode and model the session started with; later changes are entries. */
    mode: Type.Optional(Type.String({ minLength: 1 })),
    model: Type.Optional(Type.String({ minLength: 1 })),
    /** Present on forks. */
    fork: Type.Optional(ForkProvenanceSchema),
  },
  { $id: "SessionHeader" },
);
export type SessionHeader = Static<typeof SessionHeaderSchema>;

/**
 * Fields every entry has. `type` leads each entry schema so that a check of the union
 * rejects the other members at their first field.
 */
const entryBase = {
  id: Type.String({ minLength: 1 }),
  /** The previous entry's id; null for the first entry. */
  parent_id: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
  /** Epoch ms. */
  ts: Type.Number(),
};

/** A user or assistant message. Tool results are user messages of tool_result blocks. */
export const MessageEntrySchema = Type.Object(
  {
    type: Type.Literal("message"),
    ...entryBase,
    message: MessageSchema,
    /** Set when this message delivers a steer/follow-up that was queued as that entry. */
    queued_id: Type.Optional(Type.String({ minLength: 1 })),
  },
  { $id: "MessageEntry" },
);
export type MessageEntry = Static<typeof MessageEntrySchema>;

/**
 * A steer or follow-up accepted mid-turn: on disk before its accepting response, so a crash
 * before delivery loses nothing. Not part of the conversation until a message delivers it.
 */
export const QueuedInputEntrySchema = Type.Object(
  {
    type: Type.Literal("queued_input"),
    ...entryBase,
    behavior: Type.Union([Type.Literal("steer"), Type.Literal("follow_up")]),
    message: MessageSchema,
  },
  { $id: "QueuedInputEntry" },
);
export type QueuedInputEntry = Static<typeof QueuedInputEntrySchema>;

/** Queued inputs that will never be delivered (the user aborted). */
export const QueueDroppedEntrySchema = Type.Object(
  { type: Type.Literal("queue_dropped"), ...entryBase, ids: Type.Array(Type.String()) },
  { $id: "QueueDroppedEntry" },
);
export type QueueDroppedEntry = Static<typeof QueueDroppedEntrySchema>;

export const ToolResultEntrySchema = Type.Object(
  {
    type: Type.Literal("tool_result"),
    ...entryBase,
    /** A user message holding exactly one tool_result block. */
    message: MessageSchema,
    duration_ms: Type.Optional(Type.Number({ minimum: 0 })),
  },
  { $id: "ToolResultEntry" },
);
export type ToolResultEntry = Static<typeof ToolResultEntrySchema>;

/**
 * A tool call's permission question: `asked` on disk before the request goes out, `answered`
 * once it closed (any answer, or cancelled). A call whose question is asked but never answered
 * never ran, so a resumed runtime asks it again instead of recording it as interrupted.
 */
export const PermissionWaitEntrySchema = Type.Object(
  {
    type: Type.Literal("permission_wait"),
    ...entryBase,
    tool_call_id: Type.String({ minLength: 1 }),
    phase: Type.Union([Type.Literal("asked"), Type.Literal("answered")]),
  },
  { $id: "PermissionWaitEntry" },
);
export type PermissionWaitEntry = Static<typeof PermissionWaitEntrySchema>;

export const ModeChangeEntrySchema = Type.Object(
  { type: Type.Literal("mode_change"), ...entryBase, mode: Type.String({ minLength: 1 }) },
  { $id: "ModeChangeEntry" },
);
export type ModeChangeEntry = Static<typeof ModeChangeEntrySchema>;

/** The sandbox mode chosen for the agent (a flag, `agent.create`, `set_sandbox`); a resume keeps it. */
export const SandboxChangeEntrySchema = Type.Object(
  { type: Type.Literal("sandbox_change"), ...entryBase, mode: SandboxModeSchema },
  { $id: "SandboxChangeEntry" },
);
export type SandboxChangeEntry = Static<typeof SandboxChangeEntrySchema>;

/** The agent's own budget as last set (a flag, `agent.create`, `set_budget`); a resume keeps it. */
export const BudgetChangeEntrySchema = Type.Object(
  {
    type: Type.Literal("budget_change"),
    ...entryBase,
    budget_usd: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
  },
  { $id: "BudgetChangeEntry" },
);
export type BudgetChangeEntry = Static<typeof BudgetChangeEntrySchema>;

/**
 * One provider call's tokens and cost (the session's part of the cost ledger, docs/usage.md):
 * `cost_usd` null when the model has no price. A resumed runtime sums them for its budget.
 */
export const UsageEntrySchema = Type.Object(
  {
    type: Type.Literal("usage"),
    ...entryBase,
    turn_id: Type.String({ minLength: 1 }),
    model: Type.String({ minLength: 1 }),
    input: Type.Number({ minimum: 0 }),
    output: Type.Number({ minimum: 0 }),
    cache_read: Type.Optional(Type.Number({ minimum: 0 })),
    cache_write: Type.Optional(Type.Number({ minimum: 0 })),
    cost_usd: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
  },
  { $id: "UsageEntry" },
);
export type UsageEntry = Static<typeof UsageEntrySchema>;

export const ModelChangeEntrySchema = Type.Object(
  { type: Type.Literal("model_change"), ...entryBase, model: Type.String({ minLength: 1 }) },
  { $id: "ModelChangeEntry" },
);
export type ModelChangeEntry = Static<typeof ModelChangeEntrySchema>;

export const ReasoningChangeEntrySchema = Type.Object(
  {
    type: Type.Literal("reasoning_change"),
    ...entryBase,
    model: Type.String({ minLength: 1 }),
    effort: Type.String({ minLength: 1 }),
  },
  { $id: "ReasoningChangeEntry" },
);
export type ReasoningChangeEntry = Static<typeof ReasoningChangeEntrySchema>;

export const CompactionEntrySchema = Type.Object(
  {
    type: Type.Literal("compaction"),
    ...entryBase,
    /** 0-based count of compactions in this session. */
    index: Type.Integer({ minimum: 0 }),
    summary: Type.String(),
    first_kept_entry_id: Type.String({ minLength: 1 }),
    /** [firstId, lastId] of the summarized entries. */
    message_range: Type.Tuple([Type.String(), Type.String()]),
    tokens_before: Type.Number({ minimum: 0 }),
    tokens_after: Type.Number({ minimum: 0 }),
  },
  { $id: "CompactionEntry" },
);
export type CompactionEntry = Static<typeof CompactionEntrySchema>;

export const ForkCheckpointEntrySchema = Type.Object(
  {
    type: Type.Literal("checkpoint"),
    ...entryBase,
    artifactKind: Type.Literal("fork"),
    forkId: Type.String({ minLength: 1 }),
    sourceSessionId: Type.String({ minLength: 1 }),
    sourceEntryId: Type.String({ minLength: 1 }),
  },
  { $id: "ForkCheckpointEntry" },
);
export type ForkCheckpointEntry = Static<typeof ForkCheckpointEntrySchema>;

/** A turn that failed or was cut off (turn-failures.ts): shown in the transcript, never sent to the model. */
export const TurnFailureEntrySchema = Type.Object(
  { type: Type.Literal("turn_failure"), ...entryBase, ...turnFailureFields },
  { $id: "TurnFailureEntry" },
);
export type TurnFailureEntry = Static<typeof TurnFailureEntrySchema>;

export const SessionEntrySchema = Type.Union(
  [
    MessageEntrySchema,
    ToolResultEntrySchema,
    QueuedInputEntrySchema,
    QueueDroppedEntrySchema,
    PermissionWaitEntrySchema,
    ModeChangeEntrySchema,
    SandboxChangeEntrySchema,
    BudgetChangeEntrySchema,
    UsageEntrySchema,
    ModelChangeEntrySchema,
    ReasoningChangeEntrySchema,
    CompactionEntrySchema,
    ForkCheckpointEntrySchema,
    TurnFailureEntrySchema,
  ],
  { $id: "SessionEntry" },
);
export type SessionEntry = Static<typeof SessionEntrySchema>;
