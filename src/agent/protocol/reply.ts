/** A command handler's outcome, turned into a `response` by commands.ts. */
import { failure, type WireError } from "../../wire/errors.ts";

/** `after` runs once the response is out, so e.g. `turn_start` follows the accepting response. */
export type Reply =
  | { ok: true; data?: object; after?: () => void }
  | { ok: false; error: WireError; after?: () => void };

/**
 * A long operation (a manual compaction) answers when it ends, but must not hold up the
 * commands behind it: `abort` in particular is handled while it runs.
 */
export interface DeferredReply {
  deferred: Promise<Reply>;
}

export const ok = (data?: object): Reply => ({ ok: true, data });
export const fail = (code: WireError["code"], message: string): Reply => failure(code, message);
