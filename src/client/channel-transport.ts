/**
 * What a `RequestChannel` needs from a transport, whichever it is (a unix socket, a WebSocket,
 * an agent's stdio): whole inbound messages already framed and parsed, a way to send one, and
 * a way to close. Framing belongs to the transport.
 */
import type { Failure, WireError } from "../wire/errors.ts";

export interface ChannelSink {
  /** One parsed inbound message, not yet checked against its schema. */
  message(value: unknown): void;
  /** A line or frame that could not be used; the stream carries on. */
  invalid(error: WireError): void;
  /** The transport ended; called at most once per transport. */
  closed(reason: string): void;
}

export interface ChannelTransport {
  send(message: object): void;
  /** `reason` is for the peer where the transport can say one (a WebSocket close frame). */
  close(reason?: string): void;
}

/**
 * Opening failed: `retry` says whether trying again later can help (a daemon not up yet) or
 * cannot (a browser whose enrollment was revoked).
 */
export type ConnectFailure = Failure & { retry: boolean };

export type Connected = { ok: true; transport: ChannelTransport } | ConnectFailure;

/** Opens one transport that reports to `sink`; resolves once it can carry messages. */
export type Connect = (sink: ChannelSink) => Promise<Connected>;
