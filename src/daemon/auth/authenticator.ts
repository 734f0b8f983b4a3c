/**
 * Who may open the WebSocket (PROTOCOL §4.1). Browser enrollment and single-use tickets come
 * with the browser-auth work; until then the daemon refuses every upgrade with 401. Tests plug
 * in an authenticator of their own, in-process only: there is no flag that disables this.
 */
export type UpgradeDecision =
  | { ok: true; principal: string }
  | { ok: false; status: 400 | 401; message: string };

export interface Authenticator {
  authenticateUpgrade(request: Request): Promise<UpgradeDecision>;
}

export const refuseEveryUpgrade: Authenticator = {
  authenticateUpgrade: async () => ({
    ok: false,
    status: 401,
    message: "WebSocket authentication is not available yet; use the unix socket ($SHARD_HOME/daemon.sock)",
  }),
};
