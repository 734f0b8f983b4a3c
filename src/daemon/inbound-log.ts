/** The daemon log's lines about a connection's inbound queue (docs/daemon.md, "Inbound backpressure"). */

/** Logged once per connection, the first time its queue fills and reading pauses. */
export function pausedLogLine(connectionId: string, queued: { messages: number; bytes: number }): string {
  return `connection ${connectionId}: ${queued.messages} messages (${queued.bytes} bytes) wait to be handled; reading paused until half have been (later pauses are not logged)`;
}

export function droppedLogLine(connectionId: string, dropped: number): string {
  return `connection ${connectionId}: closed; ${dropped} queued command(s) that had not started were dropped`;
}
