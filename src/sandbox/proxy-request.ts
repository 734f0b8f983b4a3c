/**
 * The one request head the sandbox's proxy reads per connection: a CONNECT tunnel
 * (`CONNECT host:port HTTP/1.1`) or a plain HTTP request in absolute form
 * (`GET http://host:port/path HTTP/1.1`). Anything else is refused with the status to send.
 */

export type ProxyRequest =
  | { kind: "connect"; host: string; port: number }
  | {
      kind: "http";
      host: string;
      port: number;
      /** The head to send upstream: origin-form target, no proxy headers, `Connection: close`. */
      head: string;
    };

export type ProxyRequestError = { status: 400 | 505; message: string };

/** Headers meant for the proxy or for this one hop; never passed to the server. */
const HOP_HEADERS = new Set(["proxy-connection", "proxy-authorization", "connection", "keep-alive"]);

/** Parses a head (the bytes before the blank line, latin1-decoded). */
export function parseProxyRequest(head: string): ProxyRequest | ProxyRequestError {
  const [requestLine = "", ...headerLines] = head.split("\r\n");
  const parts = requestLine.split(" ");
  if (parts.length !== 3)
    return { status: 400, message: `malformed request line: ${printable(requestLine)}` };
  const [method = "", target = "", version = ""] = parts;
  if (!/^HTTP\/1\.[01]$/.test(version))
    return { status: 505, message: `unsupported HTTP version: ${printable(version)}` };
  if (!/^[A-Z]+$/.test(method)) return { status: 400, message: `malformed method: ${printable(method)}` };
  for (const line of headerLines) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+:[^\0\r\n]*$/.test(line))
      return { status: 400, message: `malformed header line: ${printable(line)}` };
  }
  if (method === "CONNECT") {
    const authority = splitAuthority(target, undefined);
    if (authority === undefined)
      return { status: 400, message: `CONNECT needs host:port, got: ${printable(target)}` };
    return { kind: "connect", ...authority };
  }
  if (!target.toLowerCase().startsWith("http://")) {
    return {
      status: 400,
      message: target.toLowerCase().startsWith("https://")
        ? "https:// goes through a CONNECT tunnel, not an absolute-form request"
        : `this is a proxy: a request names an absolute http:// URL (got ${printable(target)})`,
    };
  }
  const rest = target.slice("http://".length);
  const slash = rest.search(/[/?]/);
  const authorityText = slash === -1 ? rest : rest.slice(0, slash);
  const path = slash === -1 ? "/" : rest[slash] === "?" ? `/${rest.slice(slash)}` : rest.slice(slash);
  if (authorityText.includes("@"))
    return { status: 400, message: "credentials in a proxied URL are not supported" };
  const authority = splitAuthority(authorityText, 80);
  if (authority === undefined)
    return { status: 400, message: `malformed URL host: ${printable(authorityText)}` };
  const headers = headerLines.filter(
    (line) => !HOP_HEADERS.has(line.slice(0, line.indexOf(":")).toLowerCase()),
  );
  return {
    kind: "http",
    ...authority,
    head: [`${method} ${path} ${version}`, ...headers, "Connection: close", "", ""].join("\r\n"),
  };
}

function splitAuthority(
  text: string,
  defaultPort: number | undefined,
): { host: string; port: number } | undefined {
  // `[::1]:443`: an IPv6 literal keeps its brackets out of the host (it is never on the list).
  const match = /^(\[[^\]]*\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(text);
  if (!match) return undefined;
  const host = (match[1] ?? "").replace(/^\[(.*)\]$/, "$1");
  const port = match[2] !== undefined ? Number(match[2]) : defaultPort;
  if (host === "" || port === undefined || port < 1 || port > 65535) return undefined;
  return { host, port };
}

/** Bytes from the wire, shown in a message without control characters and at a sane length. */
export function printable(text: string): string {
  const clean = text.replace(/[^\x20-\x7e]/g, "?");
  return clean.length > 200 ? `${clean.slice(0, 200)}...` : clean;
}
