/**
 * A typed Shard command for an ACP handler: the result checked against its schema in the
 * command table, a refusal thrown as an ACP `RequestError` carrying Shard's `{code, message}`,
 * so the editor sees why (the SDK turns a thrown error into the JSON-RPC error response).
 */
import { RequestError } from "@agentclientprotocol/sdk";
import { type CallOf, checkResult } from "../client/command-result.ts";
import type { Command } from "../client/request-channel.ts";
import type { CommandType, ResultMap } from "../types/command-table.ts";
import type { WireError } from "../wire/errors.ts";
import { sharedCheck } from "../wire/schema-check.ts";
import type { ShardLink } from "./shard-link.ts";

export async function shardCall<T extends CommandType>(
  link: Pick<ShardLink, "request">,
  command: CallOf<T> & Command,
): Promise<ResultMap[T]> {
  const result = await link.request(command);
  if (!result.ok) throw shardError(result.error);
  const { response } = result;
  if (!response.success) {
    throw shardError(response.error ?? { code: "INTERNAL_ERROR", message: `${command.type} was refused` });
  }
  const checked = checkResult(command.type, response.data, sharedCheck);
  if (!checked.ok) throw shardError(checked.error);
  return checked.result;
}

/** Shard's error as a JSON-RPC error: internal error code, Shard's code kept in `data`. */
export function shardError(error: WireError): RequestError {
  return RequestError.internalError({ code: error.code }, `${error.code}: ${error.message}`);
}
