/**
 * The outbound cap both daemon transports enforce (docs/daemon.md): a client that stops
 * reading is closed once too much waits for it, so the agent and the other clients never
 * slow down for it and the daemon's memory stays bounded.
 */
export const DEFAULT_OUTBOUND_CAP_BYTES = 8 * 1024 * 1024;

/**
 * The rule: only what waits behind the write in flight counts against the cap, so one large
 * message (a long `message_complete`) never closes a client that is reading it.
 */
export function isOverOutboundCap(bufferedBytes: number, inFlightBytes: number, capBytes: number): boolean {
  return bufferedBytes - inFlightBytes > capBytes;
}

/** The daemon log's line for a connection closed over the cap. */
export function overCapLogLine(connectionId: string, bufferedBytes: number, capBytes: number): string {
  return `connection ${connectionId}: closed: ${bufferedBytes} bytes unread, over the ${capBytes}-byte outbound cap`;
}
