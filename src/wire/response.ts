/** Builders for the `response` envelope (docs/protocol.md §9): `id` and `command` always echoed. */
import { isRecord } from "../support/is-record.ts";
import type { Response } from "../types/response.ts";
import type { WireError } from "./errors.ts";

export type ResponseMessage = Response;

interface Correlated {
  id?: string;
  type: string;
}

/**
 * A success answering `command` with its result (`ResultOf` its type, which the handler's type
 * pins): an empty result goes without `data` (docs/protocol-additions.md).
 */
export function okResponse(command: Correlated, result: object = {}): ResponseMessage {
  const res: ResponseMessage = { type: "response", command: command.type, success: true };
  if (command.id !== undefined) res.id = command.id;
  if (Object.keys(result).length > 0) res.data = result;
  return res;
}

export function errorResponse(command: Correlated, error: WireError): ResponseMessage {
  const res: ResponseMessage = { type: "response", command: command.type, success: false, error };
  if (command.id !== undefined) res.id = command.id;
  return res;
}

/** For input too broken to know its type: echo what can be salvaged. */
export function salvageCorrelation(raw: unknown): Correlated {
  if (!isRecord(raw)) return { type: "unknown" };
  const out: Correlated = { type: typeof raw.type === "string" ? raw.type : "unknown" };
  if (typeof raw.id === "string") out.id = raw.id;
  return out;
}
