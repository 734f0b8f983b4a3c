/** Opaque, URL-safe ids with a type prefix (`turn_…`, `msg_…`, `req_…`). */
export function newId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return `${prefix}_${Buffer.from(bytes).toString("base64url")}`;
}
