/**
 * Additive (docs/protocol-additions.md): a turn that failed or was cut off stays in the
 * transcript. The runtime records a `turn_failure` session entry, emits `turn_failed`, and the
 * live window lists the failures it still shows, so `sync` (after a reload, a reconnect or a
 * restart) draws the same marker. `turn_retry` reports a provider retry in progress.
 */
import { type Static, Type } from "@sinclair/typebox";
import { eventSeq, routingAgentId } from "./envelope.ts";
import { ErrorCodeSchema } from "./errors.ts";

/** `failed`: the turn ended with an error. `interrupted`: the runtime stopped mid-turn (crash, kill, daemon gone). */
export const TurnFailureKindSchema = Type.Union([Type.Literal("failed"), Type.Literal("interrupted")], {
  $id: "TurnFailureKind",
});
export type TurnFailureKind = Static<typeof TurnFailureKindSchema>;

/** The fields a `turn_failure` session entry and its live-window record share. */
export const turnFailureFields = {
  kind: TurnFailureKindSchema,
  code: ErrorCodeSchema,
  message: Type.String(),
  /** The turn that failed, when the runtime that ran it recorded the failure. */
  turn_id: Type.Optional(Type.String({ minLength: 1 })),
  /** The newest message of the conversation when it failed: the marker is drawn after it. */
  after_message_id: Type.Optional(Type.String({ minLength: 1 })),
  /** The user message that started the turn: what a retry sends again. */
  prompt_message_id: Type.Optional(Type.String({ minLength: 1 })),
};

/** One failure the live window shows; `id` is its session entry's id. */
export const TurnFailureSchema = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    /** Epoch ms. */
    ts: Type.Number(),
    ...turnFailureFields,
  },
  { $id: "TurnFailure" },
);
export type TurnFailure = Static<typeof TurnFailureSchema>;

/** Emitted once the failure is on disk, before the `error` and `turn_end` of that turn. */
export const TurnFailedEventSchema = Type.Object(
  {
    type: Type.Literal("turn_failed"),
    agent_id: routingAgentId,
    seq: eventSeq,
    failure: TurnFailureSchema,
  },
  { $id: "TurnFailedEvent" },
);
export type TurnFailedEvent = Static<typeof TurnFailedEventSchema>;

/** A provider call failed and will be tried again after `delay_ms`: attempt `attempt` of `max_attempts`. */
export const TurnRetrySchema = Type.Object(
  {
    attempt: Type.Integer({ minimum: 2 }),
    max_attempts: Type.Integer({ minimum: 2 }),
    delay_ms: Type.Number({ minimum: 0 }),
    reason: Type.String(),
  },
  { $id: "TurnRetry" },
);
export type TurnRetry = Static<typeof TurnRetrySchema>;

/** Cleared (in the snapshot) by the next delta, message, failure or turn end. */
export const TurnRetryEventSchema = Type.Object(
  {
    type: Type.Literal("turn_retry"),
    agent_id: routingAgentId,
    seq: eventSeq,
    ...TurnRetrySchema.properties,
  },
  { $id: "TurnRetryEvent" },
);
export type TurnRetryEvent = Static<typeof TurnRetryEventSchema>;
