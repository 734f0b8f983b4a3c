/**
 * Typed calls for every client: a command as a client writes it (`CallOf`), and the success
 * `data` of its response checked against the result schema of its type in the command table
 * (src/types/command-table.ts). A server answering with the wrong shape is an INTERNAL_ERROR
 * naming the command, never a value of the wrong type.
 */
import { COMMANDS, type CommandMap, type CommandType, type ResultMap } from "../types/command-table.ts";
import { type Failure, failure } from "../wire/errors.ts";
import { schemaCheck } from "../wire/schema-check.ts";

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
): { ok: true; result: ResultMap[T] } | Failure {
  const value = data ?? {};
  if (isResultOf(type, value)) return { ok: true, result: value };
  const first = schemaCheck(COMMANDS[type].result).firstError(value);
  const field = first?.path ? `data${first.path.replaceAll("/", ".")}` : "data";
  return failure(
    "INTERNAL_ERROR",
    `${type}: the server's answer does not match the protocol's result schema (field "${field}": ${first?.message ?? "wrong shape"}); check that the client and server versions match`,
  );
}

/** The table pairs each type with its result schema, so passing that schema's check is being `ResultMap[T]`. */
function isResultOf<T extends CommandType>(type: T, value: unknown): value is ResultMap[T] {
  return schemaCheck(COMMANDS[type].result).check(value);
}
