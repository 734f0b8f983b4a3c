/**
 * What every HTTP request is judged against once the daemon knows its port: the exact Host,
 * the allowed Origins and the one peer whose forwarded headers count (docs/protocol.md §3.1, §3.2).
 * The implicit `http://127.0.0.1:<port>` origin exists only in pure loopback mode.
 */
import {
  DEFAULT_FORWARDED_HEADERS,
  type ForwardedHeaderNames,
  LOOPBACK_HOST,
  type WebConfig,
} from "./web-config.ts";

export interface WebPolicy {
  /** The address the server bound, as a URL (printed at start-up). */
  boundUrl: string;
  expectedHost: string;
  allowedOrigins: ReadonlySet<string>;
  /** `loopback` or an exact IP; undefined: no forwarded header is ever honoured. */
  trustProxy?: string;
  /** The forwarded headers read from the trusted proxy. */
  forwardedHeaders: ForwardedHeaderNames;
  /** The origin a remote browser opens (for the public enrollment URL). */
  publicOrigin?: string;
}

export function webPolicy(config: WebConfig, port: number): WebPolicy {
  if (config.mode === "loopback") {
    const origin = `http://${LOOPBACK_HOST}:${port}`;
    return {
      boundUrl: origin,
      expectedHost: `${LOOPBACK_HOST}:${port}`,
      allowedOrigins: new Set([origin]),
      forwardedHeaders: DEFAULT_FORWARDED_HEADERS,
    };
  }
  const bound = config.bindHost.includes(":") ? `[${config.bindHost}]` : config.bindHost;
  const publicOrigin =
    config.allowedOrigins.find((o) => new URL(o).host === config.publicHost) ?? config.allowedOrigins[0];
  return {
    boundUrl: `http://${bound}:${port}`,
    expectedHost: config.publicHost,
    allowedOrigins: new Set(config.allowedOrigins),
    ...(config.trustProxy !== undefined ? { trustProxy: config.trustProxy } : {}),
    forwardedHeaders: config.forwardedHeaders ?? DEFAULT_FORWARDED_HEADERS,
    ...(publicOrigin !== undefined ? { publicOrigin } : {}),
  };
}

/** Where a browser opens the daemon: the public origin in remote mode, else the bound address. */
export function browserOrigin(policy: WebPolicy): string {
  return policy.publicOrigin ?? policy.boundUrl;
}

/** Whether the direct peer is the configured upstream proxy. */
export function isTrustedPeer(peer: string | undefined, trustProxy: string | undefined): boolean {
  if (peer === undefined || trustProxy === undefined) return false;
  const address = peer.toLowerCase().startsWith("::ffff:") ? peer.slice(7) : peer;
  if (trustProxy === "loopback") return address === "127.0.0.1" || address === "::1";
  return address === trustProxy;
}
