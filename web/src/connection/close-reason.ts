/** What the connection badge says about a closed WebSocket, from its close code and reason. */
const POLICY_VIOLATION = 1008;

export function closeReason(code: number, reason: string): string {
  if (code === POLICY_VIOLATION) {
    // A policy close with its reason (a proxy's, say). The daemon itself ends a slow client and
    // a revoked browser without a close frame (1006); the next /bootstrap tells those apart.
    return `the daemon closed the connection: ${reason || "policy violation"}`;
  }
  if (reason !== "") return reason;
  return code === 1006 ? "the connection to the daemon was lost" : `the connection closed (code ${code})`;
}
