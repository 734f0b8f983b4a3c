/**
 * Connection contract: one client of an agent (stdio today, a daemon attachment later).
 * The runtime never assumes a single client; it broadcasts events to every connection.
 */
export interface Connection {
  readonly id: string;
  /** `observer` connections never answer permission or UI requests (ARCHITECTURE §6.3). */
  readonly role: "interactive" | "observer";
  send(message: Record<string, unknown>): void;
}
