/** Wire errors are plain data: `{code, message}` from docs/protocol.md §8, never Error objects. */
import type { ErrorCode } from "../types/errors.ts";

export interface WireError {
  code: ErrorCode;
  message: string;
  data?: unknown;
}

export function wireError(code: ErrorCode, message: string, data?: unknown): WireError {
  return data === undefined ? { code, message } : { code, message, data };
}

/** The failing half of every `{ ok: true, … } | { ok: false, error }` result. */
export interface Failure {
  ok: false;
  error: WireError;
}

export function failure(code: ErrorCode, message: string, data?: unknown): Failure {
  return { ok: false, error: wireError(code, message, data) };
}
