/**
 * A successful `response.data` checked against the result schema of its command in the command
 * table, with the check the caller picks (./schema-checker.ts). A command whose result is an
 * empty object answers without `data`.
 */
import { COMMANDS, type CommandType, type ResultMap } from "../types/command-table.ts";
import { type Failure, failure } from "./errors.ts";
import type { SchemaChecker } from "./schema-checker.ts";
import { describeFailure } from "./schema-failure.ts";

export function checkResultData<T extends CommandType>(
  type: T,
  data: unknown,
  check: SchemaChecker,
): { ok: true; message: ResultMap[T] } | Failure {
  const value = data ?? {};
  if (isResultOf(type, value, check)) return { ok: true, message: value };
  const why = describeFailure(COMMANDS[type].result, value).replace('field "', 'field "data.');
  return failure("INVALID_REQUEST", `${type} response: ${why}`);
}

/** The table pairs each type with its result schema: passing that schema's check is being `ResultMap[T]`. */
function isResultOf<T extends CommandType>(
  type: T,
  value: unknown,
  check: SchemaChecker,
): value is ResultMap[T] {
  return check(COMMANDS[type].result, value);
}
