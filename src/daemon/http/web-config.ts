/**
 * Which of the three web configurations (docs/protocol.md §3.2) the remote flags select, validated
 * loudly: every unsafe or incomplete combination is an error that names the flag to add or
 * remove. The daemon never degrades silently into an unsafe remote configuration.
 */
import { isIP } from "node:net";

export interface RemoteFlags {
  webHost?: string;
  publicHost?: string;
  allowedOrigins: string[];
  allowInsecureRemote: boolean;
  trustProxy?: string;
  /** Header names the proxy uses instead of X-Forwarded-Proto / X-Forwarded-Host. */
  forwardedProtoHeader?: string;
  forwardedHostHeader?: string;
}

/** The forwarded headers consumed from the trusted proxy (lower case). */
export interface ForwardedHeaderNames {
  proto: string;
  host: string;
}

export const DEFAULT_FORWARDED_HEADERS: ForwardedHeaderNames = {
  proto: "x-forwarded-proto",
  host: "x-forwarded-host",
};

export type WebConfig =
  | { mode: "loopback" }
  | {
      mode: "direct" | "proxy";
      bindHost: string;
      /** The Host every request must carry, exactly (`host:port`). */
      publicHost: string;
      allowedOrigins: string[];
      /** `loopback` (127.0.0.1 / ::1) or one exact IP literal; proxy mode only. */
      trustProxy?: string;
      /** Proxy mode only; X-Forwarded-Proto / X-Forwarded-Host when absent. */
      forwardedHeaders?: ForwardedHeaderNames;
      allowInsecureRemote: boolean;
    };

export const LOOPBACK_HOST = "127.0.0.1";

export const PLAINTEXT_COOKIE_WARNING =
  "warning: --allow-insecure-remote: the session cookie crosses the network in plaintext and can be stolen there; use this only on a trusted network, a VPN or an SSH tunnel";

export function webConfigFromFlags(
  flags: RemoteFlags,
): { ok: true; config: WebConfig } | { ok: false; message: string } {
  const fail = (message: string) => ({ ok: false as const, message });
  const { webHost, publicHost, allowedOrigins, allowInsecureRemote, trustProxy } = flags;
  if (webHost !== undefined && isIP(webHost) === 0) {
    return fail(`--web-host must be an IP address to bind (got "${webHost}")`);
  }
  if (trustProxy !== undefined && trustProxy !== "loopback" && isIP(trustProxy) === 0) {
    return fail(`--trust-proxy must be "loopback" or the proxy's exact IP address (got "${trustProxy}")`);
  }
  const headers = forwardedHeaderNames(flags);
  if (!headers.ok) return headers;
  const nonLoopbackBind = webHost !== undefined && webHost !== LOOPBACK_HOST;
  if (!nonLoopbackBind && trustProxy === undefined) {
    for (const [given, flag] of [
      [publicHost !== undefined, "--public-host"],
      [allowedOrigins.length > 0, "--allowed-origin"],
      [allowInsecureRemote, "--allow-insecure-remote"],
    ] as const) {
      if (given)
        return fail(
          `${flag} is for remote mode: add --web-host <non-loopback ip> or --trust-proxy <upstream>`,
        );
    }
    return { ok: true, config: { mode: "loopback" } };
  }
  if (webHost !== undefined && isLoopbackAlias(webHost) && trustProxy === undefined) {
    return fail(`--web-host ${webHost}: loopback mode binds ${LOOPBACK_HOST}; omit --web-host`);
  }
  if (publicHost === undefined) {
    return fail("remote mode needs --public-host <host:port>, the exact Host browsers reach the daemon by");
  }
  const host = checkPublicHost(publicHost);
  if (!host.ok) return host;
  if (allowedOrigins.length === 0) {
    return fail("remote mode needs --allowed-origin <origin> (repeatable), e.g. https://shard.example.com");
  }
  for (const origin of allowedOrigins) {
    const checked = checkOrigin(origin);
    if (!checked.ok) return checked;
  }
  const plaintext = allowedOrigins.filter((o) => o.startsWith("http:"));
  if (trustProxy === undefined) {
    const https = allowedOrigins.find((o) => o.startsWith("https:"));
    if (https !== undefined) {
      return fail(
        `--allowed-origin ${https}: without --trust-proxy the daemon serves plain http; put a TLS proxy in front and add --trust-proxy <upstream>`,
      );
    }
    if (!allowInsecureRemote) {
      return fail(
        `--web-host ${webHost} serves plain http to the network: add --allow-insecure-remote to accept that the session cookie can be intercepted (or use a TLS proxy with --trust-proxy)`,
      );
    }
  } else if (plaintext.length > 0 && !allowInsecureRemote) {
    return fail(
      `--allowed-origin ${plaintext[0]} is plaintext: add --allow-insecure-remote to accept that the session cookie can be intercepted, or use an https origin`,
    );
  } else if (plaintext.length === 0 && allowInsecureRemote) {
    return fail(
      "--allow-insecure-remote is only for plaintext remote access, and every --allowed-origin is https: remove it",
    );
  }
  return {
    ok: true,
    config: {
      mode: trustProxy === undefined ? "direct" : "proxy",
      bindHost: webHost ?? LOOPBACK_HOST,
      publicHost: host.host,
      allowedOrigins: [...new Set(allowedOrigins)],
      ...(trustProxy !== undefined ? { trustProxy } : {}),
      ...(headers.names !== undefined ? { forwardedHeaders: headers.names } : {}),
      allowInsecureRemote,
    },
  };
}

const HEADER_NAME = /^[A-Za-z0-9-]{1,64}$/;
/** Headers that decide something on their own and must never be read as a forwarded value. */
const RESERVED_HEADERS = new Set(["host", "origin", "cookie", "x-forwarded-for", "sec-websocket-protocol"]);

function forwardedHeaderNames(
  flags: RemoteFlags,
): { ok: true; names?: ForwardedHeaderNames } | { ok: false; message: string } {
  const given: [string, string | undefined][] = [
    ["--forwarded-proto-header", flags.forwardedProtoHeader],
    ["--forwarded-host-header", flags.forwardedHostHeader],
  ];
  for (const [flag, value] of given) {
    if (value === undefined) continue;
    if (flags.trustProxy === undefined) {
      return {
        ok: false,
        message: `${flag} names a header of the trusted proxy: add --trust-proxy <upstream>`,
      };
    }
    if (!HEADER_NAME.test(value) || RESERVED_HEADERS.has(value.toLowerCase())) {
      return {
        ok: false,
        message: `${flag} must be a plain header name other than ${[...RESERVED_HEADERS].join(", ")} (got "${value}")`,
      };
    }
  }
  if (flags.forwardedProtoHeader === undefined && flags.forwardedHostHeader === undefined)
    return { ok: true };
  const names = {
    proto: (flags.forwardedProtoHeader ?? DEFAULT_FORWARDED_HEADERS.proto).toLowerCase(),
    host: (flags.forwardedHostHeader ?? DEFAULT_FORWARDED_HEADERS.host).toLowerCase(),
  };
  if (names.proto === names.host) {
    return {
      ok: false,
      message: "--forwarded-proto-header and --forwarded-host-header must name two different headers",
    };
  }
  return { ok: true, names };
}

function isLoopbackAlias(ip: string): boolean {
  return ip === "::1" || ip.startsWith("127.") || ip.toLowerCase().startsWith("::ffff:127.");
}

/** `host:port`, or `host` alone when browsers reach it on the scheme's default port (they omit it then). */
const HOST_PORT = /^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)(?::([0-9]{1,5}))?$/;

function checkPublicHost(value: string): { ok: true; host: string } | { ok: false; message: string } {
  const match = HOST_PORT.exec(value);
  const port = match?.[2] === undefined ? 1 : Number(match[2]);
  if (!match || port < 1 || port > 65_535) {
    return {
      ok: false,
      message: `--public-host must be host:port in lower case (host alone for the default port), exactly as browsers send it in Host (got "${value}")`,
    };
  }
  return { ok: true, host: value };
}

function checkOrigin(value: string): { ok: true } | { ok: false; message: string } {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== value) {
    const hint =
      url && (url.protocol === "http:" || url.protocol === "https:") ? `; did you mean ${url.origin}?` : "";
    return {
      ok: false,
      message: `--allowed-origin "${value}" is not a serialized origin (scheme://host[:port], no path, no trailing slash)${hint}`,
    };
  }
  return { ok: true };
}
