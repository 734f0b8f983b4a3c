/**
 * What every transport gives the connection above it: whole inbound messages (already framed
 * and parsed) and a way to send one. Framing is the transport's: JSONL on stdio and the unix
 * socket, one JSON message per text frame on the WebSocket (docs/protocol.md §1).
 */
import type { AnyCommand, OutboundCommand } from "../../../src/types/command-table.ts";
import type { WireError } from "../../../src/wire/errors.ts";

export interface TransportSink {
  /** One parsed inbound message (not yet checked against its schema). */
  message(value: unknown): void;
  /** A line or frame that could not be used; the stream carries on. */
  invalid(error: WireError): void;
  /** The transport ended; called once. */
  closed(reason: string): void;
}

/** What a client writes: any command of the protocol, numbered with its request id or not. */
export type ClientCommand = AnyCommand | OutboundCommand;

export interface Transport {
  send(command: ClientCommand): void;
  close(): void;
}
