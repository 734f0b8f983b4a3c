/**
 * Typed calls for every client: a command as a client writes it (`CallOf`), and the success
 * `data` of its response checked against the result schema of its type in the command table
 * (src/types/command-table.ts). A server answering with the wrong shape is an INTERNAL_ERROR
 * naming the command and the field, never a value of the wrong type. The caller picks the
 * check: the shared one in Bun, the interpreted one in the page (src/wire/schema-checker.ts).
 */
import type { CommandMap, CommandType, ResultMap } from "../types/command-table.ts";
import { type Failure, failure } from "../wire/errors.ts";
import { checkResultData } from "../wire/result-data.ts";
import type { SchemaChecker } from "../wire/schema-checker.ts";

type WithoutCorrelation<C> = C extends unknown ? Omit<C, "id" | "type"> : never;

/** A command of `type` T as a client writes it: the channel adds the `id`. */
export type CallOf<T extends CommandType> = { type: T } & WithoutCorrelation<CommandMap[T]>;

/** Sends a typed command and resolves with its checked result. */
export type TypedCall<Base extends CommandType = CommandType> = <T extends Base>(
  command: CallOf<T>,
) => Promise<ResultMap[T]>;

/** `data` of a successful `type` response, checked (an empty result arrives without `data`). */
export function checkResult<T extends CommandType>(
  type: T,
  data: unknown,
  check: SchemaChecker,
): { ok: true; result: ResultMap[T] } | Failure {
  const checked = checkResultData(type, data, check);
  if (checked.ok) return { ok: true, result: checked.message };
  return failure(
    "INTERNAL_ERROR",
    `${checked.error.message}: the server's answer does not match the protocol's result schema; check that the client and server versions match`,
  );
}
