/**
 * Every failure the SDK reports is a `ShardError` carrying the wire's `{code, message, data?}`
 * (docs/protocol.md §8): a command's error response, an `error` event that ended a turn, or a
 * client-side condition (timeout, lost connection) mapped onto the same code registry.
 */
import type { ErrorCode } from "../../src/types/errors.ts";
import type { WireError } from "../../src/wire/errors.ts";

export class ShardError extends Error {
  override readonly name = "ShardError";

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  static from(error: WireError): ShardError {
    return new ShardError(error.code, error.message, error.data);
  }

  /** The plain `{code, message}` form, for logs and wire-shaped reports. */
  toJSON(): WireError {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}
