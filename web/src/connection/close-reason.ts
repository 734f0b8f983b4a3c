/** What the connection badge says about a closed WebSocket, from its close code and reason. */
const POLICY_VIOLATION = 1008;

export function closeReason(code: number, reason: string): string {
  if (code === POLICY_VIOLATION) {
    // The daemon closes a client that reads too slowly, and every socket of a revoked browser,
    // with 1008; the next /bootstrap tells the two apart (a revoked browser gets no ticket).
    return `the daemon closed the connection: ${reason || "policy violation"}`;
  }
  if (reason !== "") return reason;
  return code === 1006 ? "the connection to the daemon was lost" : `the connection closed (code ${code})`;
}
