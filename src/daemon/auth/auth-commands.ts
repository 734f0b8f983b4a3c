/**
 * `auth.enroll`, `auth.list`, `auth.revoke` (docs/protocol-additions.md §10): answered only to
 * a client of local trust (the unix socket). A WebSocket client — a browser — can neither mint
 * codes nor revoke browsers: PERMISSION_DENIED.
 */
import { AUTH_COMMAND_SCHEMAS } from "../../types/catalog.ts";
import { errorResponse, okResponse } from "../../wire/response.ts";
import { messageGuard } from "../../wire/validate.ts";
import type { DaemonClient } from "../broker/daemon-client.ts";
import type { BrowserAuth } from "./browser-auth.ts";

export type AuthCommand = NonNullable<ReturnType<typeof asAuthCommand>>;

/** Narrows a validated orchestrator command to the ones this module handles. */
export const asAuthCommand = messageGuard(AUTH_COMMAND_SCHEMAS);

export interface AuthCommandDeps {
  auth: BrowserAuth;
  /**
   * Where browsers open the daemon (the loopback address, or the public origin), once the HTTP
   * server listens: the unix socket is up first, so an early `auth.enroll` waits for it.
   */
  enrollmentBase(): Promise<string>;
  /** Closes the browser's open WebSockets; returns how many. */
  closeConnections(browserId: string): number;
}

export function authCommandHandler(deps: AuthCommandDeps) {
  return async (client: DaemonClient, command: AuthCommand): Promise<void> => {
    if (!client.localTrust) {
      client.send(
        errorResponse(command, {
          code: "PERMISSION_DENIED",
          message: `${command.type} is answered on the unix socket only; run \`shard auth\` on the daemon's machine`,
        }),
      );
      return;
    }
    switch (command.type) {
      case "auth.enroll": {
        const base = await deps.enrollmentBase();
        const { code, expires_at } = deps.auth.mintCode();
        client.send(okResponse(command, { url: `${base}/#enroll=${code}`, expires_at }));
        return;
      }
      case "auth.list":
        client.send(okResponse(command, { browsers: deps.auth.list() }));
        return;
      case "auth.revoke": {
        if (!deps.auth.revoke(command.browser_id)) {
          client.send(
            errorResponse(command, {
              code: "NOT_FOUND",
              message: `no enrolled browser ${command.browser_id}; shard auth list shows them`,
            }),
          );
          return;
        }
        const closed = deps.closeConnections(command.browser_id);
        client.send(okResponse(command, { browser_id: command.browser_id, closed_connections: closed }));
        return;
      }
    }
  };
}
