/**
 * `shard auth enroll | list [--json] | revoke <id>`: browser enrollment, over the running
 * daemon's unix socket (local trust). The enrollment code is printed here, on the terminal,
 * and nowhere else.
 */

import type { CallOf } from "../client/command-result.ts";
import { shardHome } from "../support/shard-home.ts";
import { writeEnrollmentQr } from "../terminal/enrollment-qr.ts";
import { terminalLine } from "../terminal/terminal-text.ts";
import type { CommandType } from "../types/command-table.ts";
import { daemonRequest, requestResult } from "./daemon-request.ts";
import { parseFlags, reportUsageError, UsageError } from "./flags.ts";

export const AUTH_HELP = `Usage: shard auth <enroll | list [--json] | revoke <id>>

Manages the browsers that may use the daemon's web client (talks to the running daemon over
$SHARD_HOME/daemon.sock).

  enroll        print a one-time enrollment URL (single use, valid 10 minutes)
  list          list the enrolled browsers (--json: an array of { id, label, created_at, last_seen_at })
  revoke <id>   forget a browser and close its open connections
`;

const OPTIONS = { json: { type: "boolean" }, help: { type: "boolean", short: "h" } } as const;

export async function authCommand(argv: string[]): Promise<number> {
  let action: string | undefined;
  let target: string | undefined;
  let json = false;
  try {
    const { values, positionals } = parseFlags(argv, OPTIONS, true);
    if (values.help) {
      process.stdout.write(AUTH_HELP);
      return 0;
    }
    [action, target] = positionals;
    json = values.json === true;
    const expected = action === "revoke" ? 2 : 1;
    if (action !== "enroll" && action !== "list" && action !== "revoke") {
      throw new UsageError(
        action === undefined ? "name an action: enroll, list or revoke" : `unknown action "${action}"`,
      );
    }
    if (positionals.length !== expected) {
      throw new UsageError(
        action === "revoke"
          ? "revoke takes one browser id (shard auth list shows them)"
          : `${action} takes no arguments`,
      );
    }
    if (json && action !== "list") throw new UsageError("--json goes with list");
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return reportUsageError("auth", err.message);
  }
  const home = shardHome(process.env);
  const request = <T extends CommandType>(command: CallOf<T>) =>
    requestResult("shard auth", (c) => daemonRequest(home, c), command);
  switch (action) {
    case "enroll": {
      const data = await request({ type: "auth.enroll" });
      if (data === undefined) return 1;
      process.stdout.write(`${data.url}\n`);
      writeEnrollmentQr(data.url, process.stdout);
      return 0;
    }
    case "list": {
      const data = await request({ type: "auth.list" });
      if (data === undefined) return 1;
      if (json) {
        process.stdout.write(`${JSON.stringify(data.browsers)}\n`);
        return 0;
      }
      if (data.browsers.length === 0)
        process.stdout.write("no browser is enrolled; shard auth enroll prints a URL\n");
      for (const b of data.browsers) {
        const when = (ms: number) => new Date(ms).toISOString();
        process.stdout.write(
          `${b.id}  ${terminalLine(b.label)}  enrolled ${when(b.created_at)}  last seen ${when(b.last_seen_at)}\n`,
        );
      }
      return 0;
    }
    default: {
      const data = await request({ type: "auth.revoke", browser_id: target ?? "" });
      if (data === undefined) return 1;
      process.stdout.write(`revoked ${data.browser_id} (${data.closed_connections} connections closed)\n`);
      return 0;
    }
  }
}
