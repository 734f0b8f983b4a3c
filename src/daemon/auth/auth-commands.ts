/**
 * `auth.enroll`, `auth.list`, `auth.revoke` (docs/protocol-additions.md §10): answered only to
 * a client of local trust (the unix socket). A WebSocket client — a browser — can neither mint
 * codes nor revoke browsers: PERMISSION_DENIED.
 */
import type { ResultMap } from "../../types/command-table.ts";
import { type Failure, failure } from "../../wire/errors.ts";
import type { ClientConnection } from "../broker/client-connection.ts";
import { type Answer, answer, type HandlersOf } from "../broker/command-handlers.ts";
import type { BrowserAuth } from "./browser-auth.ts";

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

export function authHandlers(deps: AuthCommandDeps): HandlersOf<"auth"> {
  return {
    "auth.enroll": (client, command) => remoteRefusal(client, command.type) ?? enroll(deps),
    "auth.list": (client, command) =>
      remoteRefusal(client, command.type) ?? answer({ browsers: deps.auth.list() }),
    "auth.revoke": (client, command) => {
      const refused = remoteRefusal(client, command.type);
      if (refused) return refused;
      if (!deps.auth.revoke(command.browser_id)) {
        return failure("NOT_FOUND", `no enrolled browser ${command.browser_id}; shard auth list shows them`);
      }
      const closed = deps.closeConnections(command.browser_id);
      return answer({ browser_id: command.browser_id, closed_connections: closed });
    },
  };
}

async function enroll(deps: AuthCommandDeps): Promise<Answer<ResultMap["auth.enroll"]>> {
  const base = await deps.enrollmentBase();
  const { code, expires_at } = deps.auth.mintCode();
  return answer({ url: `${base}/#enroll=${code}`, expires_at });
}

/** Browser auth is managed from the daemon's machine only. */
function remoteRefusal(client: ClientConnection, type: string): Failure | undefined {
  if (client.localTrust) return undefined;
  return failure(
    "PERMISSION_DENIED",
    `${type} is answered on the unix socket only; run \`shard auth\` on the daemon's machine`,
  );
}
