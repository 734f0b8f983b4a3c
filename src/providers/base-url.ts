/** Base URLs as users write them (env or models.json): checked once, normalized per SDK. */

/** Why `url` cannot be a base URL, or undefined when it can. */
export function baseUrlProblem(url: string): string | undefined {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  // `localhost:11434/v1` parses, with "localhost:" as its scheme.
  if (
    parsed === undefined ||
    (parsed.protocol !== "http:" && parsed.protocol !== "https:") ||
    !parsed.hostname
  ) {
    const example = /^[a-z][a-z\d+.-]*:\/\//i.test(url) ? "http://127.0.0.1:11434/v1" : `http://${url}`;
    return `must be an http:// or https:// URL (got ${JSON.stringify(url)}); for example ${example}`;
  }
  return undefined;
}

/**
 * The Anthropic SDK appends `/v1/messages` itself, so a base URL written with `/v1` (as
 * many proxies document it) would request `/v1/v1/messages`.
 */
export function anthropicSdkBaseUrl(url: string): string {
  return url.replace(/\/+$/, "").replace(/\/v1$/, "");
}
