/**
 * The one id generator: opaque, URL-safe ids with a type prefix. The protocol's id families
 * (docs/protocol.md §10.4, §12) join prefix and body with `-` (`job-…`, `run-…`, `agent-…`); the
 * daemon's and runtime's own ids keep `_` (`msg_…`, `ses_…`, `req_…`).
 */
import { randomBytes } from "node:crypto";

export const ID_FAMILIES = ["job", "run", "agent"] as const;
export type IdFamily = (typeof ID_FAMILIES)[number];

const FAMILIES: ReadonlySet<string> = new Set(ID_FAMILIES);

export function newId(prefix: string): string {
  // 15 bytes → 20 base64url chars (120 bits): collision-free in practice, no padding.
  return `${prefix}${FAMILIES.has(prefix) ? "-" : "_"}${randomBytes(15).toString("base64url")}`;
}

/**
 * The pattern of a stored id of `family`: `agent-…` as minted now, or `agent_…` as records
 * written before the protocol's separator have it (they keep loading). Path-safe either way;
 * a `suffix` (regex source, such as `\.json`) makes it match a file name.
 */
export function idPattern(family: IdFamily, suffix = ""): string {
  return `^${family}[-_][A-Za-z0-9_-]+${suffix}$`;
}
