/**
 * Bearer secrets (enrollment codes, session cookies, WS tickets) and the one-way hash that is
 * all we ever keep of them. The secrets carry 256 bits of entropy, so a plain SHA-256 is
 * enough: there is nothing to brute-force that a slow hash would protect.
 */
import { createHash, randomBytes } from "node:crypto";

const SECRET_BYTES = 32;
/** base64url of 32 bytes: 43 characters, all valid in a cookie value and a subprotocol token. */
export const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newSecret(): string {
  return randomBytes(SECRET_BYTES).toString("base64url");
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}
