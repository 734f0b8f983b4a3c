/**
 * The refusal of new work while the daemon stops: `CONFLICT` (the state does not allow it now)
 * with `data.shutting_down`, so a client can tell it from other conflicts without parsing text.
 */
import { type Failure, failure } from "../../wire/errors.ts";

export function shuttingDownFailure(what: string): Failure {
  return failure(
    "CONFLICT",
    `the daemon is shutting down: ${what}; start it again (shard daemon) and retry`,
    { shutting_down: true },
  );
}
