/**
 * Error model (docs/protocol.md §8): the closed code registry and the `{code, message, data?}`
 * shape.
 */
import { type Static, Type } from "@sinclair/typebox";

/** Every code the server may put on the wire. Extending the registry means adding here. */
export const ERROR_CODES = [
  "INVALID_REQUEST",
  "NOT_FOUND",
  "NOT_ATTACHED",
  "PERMISSION_DENIED",
  "PROTOCOL_ERROR",
  "TIMEOUT",
  "RUNTIME_START_FAILED",
  "SESSION_CORRUPT",
  "INTERNAL_ERROR",
  "PROVIDER_ERROR",
  "TOOL_ERROR",
  "CONFLICT",
  "BUDGET_EXCEEDED",
] as const;

/** What each code tells a client (the generated reference, docs/protocol.md, lists them). */
export const ERROR_CODE_MEANINGS: Readonly<Record<(typeof ERROR_CODES)[number], string>> = {
  INVALID_REQUEST: "The command is malformed or its fields are wrong; the message names the field.",
  NOT_FOUND: "The agent, session, workspace, job, mode, model or entry it names does not exist.",
  NOT_ATTACHED: "A per-agent command on a daemon connection that is not attached to that agent.",
  PERMISSION_DENIED:
    "The connection may not do this (an observer answering a request, a browser managing auth).",
  PROTOCOL_ERROR: "Version mismatch, or a message out of sequence.",
  TIMEOUT: "Nobody answered a request in time, or an operation ran past its limit.",
  RUNTIME_START_FAILED: "The agent's runtime could not be started; sending the command again retries.",
  SESSION_CORRUPT: "The session file cannot be read; the message names the line and field.",
  INTERNAL_ERROR: "A fault in Shard itself; the message says what failed.",
  PROVIDER_ERROR: "The model provider failed (an `error` event mid-turn).",
  TOOL_ERROR: "A tool failed outside its own result (an `error` event mid-turn).",
  CONFLICT: "The state does not allow it now (a turn is running, a stale precondition, a run still active).",
  BUDGET_EXCEEDED:
    "A spending limit is used up (the agent's budget, its subagent job's, the daemon's daily cap): the turn stopped at a provider boundary and prompts are refused until it is raised (`set_budget`).",
};

export const ErrorCodeSchema = Type.Union(
  ERROR_CODES.map((code) => Type.Literal(code)),
  { $id: "ErrorCode" },
);
export type ErrorCode = Static<typeof ErrorCodeSchema>;

/** Command error carried by a failed `response` (docs/protocol.md §9). */
export const WireErrorSchema = Type.Object(
  { code: ErrorCodeSchema, message: Type.String(), data: Type.Optional(Type.Unknown()) },
  { $id: "WireError" },
);
export type WireError = Static<typeof WireErrorSchema>;

/** Every refusal of the daemon's HTTP routes (`/enroll`, `/bootstrap`, `/ws`, 404s): the body. */
export const HttpErrorSchema = Type.Object(
  { code: ErrorCodeSchema, message: Type.String() },
  { $id: "HttpError" },
);
export type HttpError = Static<typeof HttpErrorSchema>;
