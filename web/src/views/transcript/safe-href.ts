/**
 * The link targets the transcript keeps: absolute http(s) and mailto only. Everything else —
 * `javascript:`, `data:`, `vbscript:`, `file:`, relative paths (they would resolve against the
 * control room itself) — is refused. Browsers ignore tabs and newlines inside a scheme and
 * leading control characters or spaces, so those are stripped before the check.
 */
const ALLOWED = /^(?:https?:\/\/[^\s/]|mailto:[^\s])/i;

export function isSafeHref(href: string): boolean {
  const normalized = href.replace(/[\u0000-\u0020\u007f]+/g, "");
  return ALLOWED.test(normalized) && ALLOWED.test(href.trimStart());
}
