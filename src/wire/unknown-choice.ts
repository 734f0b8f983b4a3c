/**
 * The one error for a `permission_response` whose `choice_id` the open request did not offer.
 * The spec calls such an answer invalid and leaves the request open, so another answer may win;
 * the daemon and a direct `shard agent` both answer with this.
 */
import type { WireError } from "./errors.ts";

export function unknownChoiceError(
  requestId: string,
  choiceId: string,
  offered: readonly string[],
): WireError {
  const known = offered.join(", ") || "none; answer with decision";
  return {
    code: "INVALID_REQUEST",
    message: `permission_response: field "choice_id": "${choiceId}" is not a choice of request ${requestId} (choices: ${known}); the request stays open`,
  };
}
