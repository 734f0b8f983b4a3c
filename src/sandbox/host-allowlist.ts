/**
 * Which hosts the sandbox's filtering proxy lets a confined command reach (docs/sandbox.md#network):
 * an entry is an exact host name or IP literal, or `*.example.com` for every name below
 * example.com (not example.com itself). Case-insensitive, any port.
 */

/** A host as the proxy compares it: lower case, without a trailing root dot; undefined if it is no host name. */
export function normalizeHost(host: string): string | undefined {
  const lower = host.toLowerCase().replace(/\.$/, "");
  // Host names and IPv4 literals only: anything else (IPv6, percent-encoding, spaces) cannot
  // be on the list (its schema allows just these characters), so it is never allowed.
  if (lower.length === 0 || lower.length > 253 || !/^[a-z0-9.-]+$/.test(lower)) return undefined;
  if (lower.split(".").some((label) => label.length === 0 || label.length > 63)) return undefined;
  return lower;
}

export function hostAllowed(host: string, allow: readonly string[]): boolean {
  const name = normalizeHost(host);
  if (name === undefined) return false;
  return allow.some((entry) => {
    const rule = entry.toLowerCase().replace(/\.$/, "");
    if (rule.startsWith("*.")) return name.endsWith(rule.slice(1)) && name.length > rule.length - 1;
    return name === rule;
  });
}
