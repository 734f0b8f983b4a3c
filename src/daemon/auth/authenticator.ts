/**
 * Who may open the WebSocket (docs/protocol.md §3.1). The daemon's authenticator is BrowserAuth
 * (enrollment, session cookie, single-use ticket). Tests may plug in another one, in-process
 * only: there is no flag that disables authentication.
 */
export type UpgradeDecision =
  | {
      ok: true;
      /** The enrolled browser (or a test's name for its client). */
      principal: string;
      /** The enrolled browser's label, to name it to people (`permission_resolved.source`). */
      label?: string;
      /** The subprotocol to answer with (`shard.v1`), when the client offered one. */
      protocol?: string;
    }
  | { ok: false; status: 400 | 401; message: string };

export interface Authenticator {
  authenticateUpgrade(request: Request): Promise<UpgradeDecision>;
}

export const refuseEveryUpgrade: Authenticator = {
  authenticateUpgrade: async () => ({
    ok: false,
    status: 401,
    message: "WebSocket upgrades are refused here; use the unix socket ($SHARD_HOME/daemon.sock)",
  }),
};
