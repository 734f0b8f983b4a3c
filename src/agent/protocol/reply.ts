/** A runtime command handler's outcome, turned into a `response` by commands.ts. */
import { type Failure, failure, type WireError } from "../../wire/errors.ts";

/**
 * `data` is the command's result (`ResultMap[type]`, src/types/command-table.ts). `after` runs
 * once the response is out, so e.g. `turn_start` follows the accepting response.
 */
export type Reply<R> = { ok: true; data: R; after?: () => void } | (Failure & { after?: () => void });

/**
 * A long operation (a manual compaction) answers when it ends, but must not hold up the
 * commands behind it: `abort` in particular is handled while it runs.
 */
export interface DeferredReply<R> {
  deferred: Promise<Reply<R>>;
}

export const ok = <R>(data: R, after?: () => void): Reply<R> =>
  after ? { ok: true, data, after } : { ok: true, data };
export const fail = (code: WireError["code"], message: string): Failure => failure(code, message);
