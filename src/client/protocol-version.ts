/**
 * A client speaks to a server of the same protocol major version only (docs/protocol.md §7):
 * there is no in-band down-negotiation, so a `hello` with another major ends the connection with
 * PROTOCOL_ERROR, and reconnecting would not help.
 */
import { PROTOCOL_VERSION } from "../types/envelope.ts";
import { type Failure, failure } from "../wire/errors.ts";

const major = (version: string): string => version.split(".")[0] ?? "";

export function checkProtocolVersion(theirs: unknown): { ok: true } | Failure {
  if (typeof theirs === "string" && major(theirs) === major(PROTOCOL_VERSION)) return { ok: true };
  const said = typeof theirs === "string" ? `protocol ${theirs}` : "no protocol_version";
  return failure(
    "PROTOCOL_ERROR",
    `the server's hello says ${said}; this client speaks ${PROTOCOL_VERSION}: use a client and a daemon from the same Shard release`,
  );
}
