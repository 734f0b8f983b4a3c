/** The one id generator: opaque, URL-safe ids with a type prefix (`msg_…`, `ses_…`, `req_…`). */
import { randomBytes } from "node:crypto";

export function newId(prefix: string): string {
  // 15 bytes → 20 base64url chars (120 bits): collision-free in practice, no padding.
  return `${prefix}_${randomBytes(15).toString("base64url")}`;
}
