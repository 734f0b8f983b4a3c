/**
 * `session_op` answers with the result of the op it was asked for (list, compact or fork): the
 * command table knows only their union, so each client narrows it by op here. An answer that is
 * not the op's result is an INTERNAL_ERROR (the server is out of step with the client).
 */
import type { Static, TSchema } from "@sinclair/typebox";
import {
  CompactResultSchema,
  ForkResultSchema,
  SessionOpListResultSchema,
  type SessionOpName,
  type SessionOpResult,
} from "../types/session-op.ts";
import { type Failure, failure } from "../wire/errors.ts";
import type { SchemaChecker } from "../wire/schema-checker.ts";

const RESULT_OF_OP = {
  list: SessionOpListResultSchema,
  compact: CompactResultSchema,
  fork: ForkResultSchema,
} as const satisfies Record<SessionOpName, TSchema>;

export type SessionOpResultOf<O extends SessionOpName> = Static<(typeof RESULT_OF_OP)[O]>;

export function sessionOpResult<O extends SessionOpName>(
  op: O,
  data: SessionOpResult,
  check: SchemaChecker,
): { ok: true; result: SessionOpResultOf<O> } | Failure {
  if (isResultOf(op, data, check)) return { ok: true, result: data };
  return failure(
    "INTERNAL_ERROR",
    `session_op ${op}: the answer is not the ${op} result; check that the client and server versions match`,
  );
}

function isResultOf<O extends SessionOpName>(
  op: O,
  data: SessionOpResult,
  check: SchemaChecker,
): data is SessionOpResult & SessionOpResultOf<O> {
  return check(RESULT_OF_OP[op], data);
}
