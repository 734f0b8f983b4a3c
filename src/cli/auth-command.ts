/**
 * `shard auth enroll | list [--json] | revoke <id>`: browser enrollment, over the running
 * daemon's unix socket (local trust). The enrollment code is printed here, on the terminal,
 * and nowhere else.
 */
import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { shardHome } from "../support/shard-home.ts";
import { terminalLine } from "../terminal/terminal-text.ts";
import { AuthEnrollResultSchema, AuthListResultSchema, AuthRevokeResultSchema } from "../types/auth.ts";
import { daemonRequest } from "./daemon-request.ts";
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
  switch (action) {
    case "enroll": {
      const data = await request(home, { type: "auth.enroll" }, AuthEnrollResultSchema);
      if (data === undefined) return 1;
      process.stdout.write(`${data.url}\n`);
      return 0;
    }
    case "list": {
      const data = await request(home, { type: "auth.list" }, AuthListResultSchema);
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
      const data = await request(
        home,
        { type: "auth.revoke", browser_id: target ?? "" },
        AuthRevokeResultSchema,
      );
      if (data === undefined) return 1;
      process.stdout.write(`revoked ${data.browser_id} (${data.closed_connections} connections closed)\n`);
      return 0;
    }
  }
}

/** The command's data, checked against its schema; on failure the message is printed and undefined returned. */
async function request<S extends TSchema>(
  home: string,
  command: { type: string; [field: string]: unknown },
  schema: S,
) {
  const result = await daemonRequest(home, command);
  if (!result.ok) {
    process.stderr.write(`shard auth: ${result.message}\n`);
    return undefined;
  }
  const { response } = result;
  if (!response.success) {
    process.stderr.write(`shard auth: ${terminalLine(response.error?.message ?? "the daemon refused")}\n`);
    return undefined;
  }
  const check = TypeCompiler.Compile(schema);
  if (!check.Check(response.data)) {
    process.stderr.write(
      "shard auth: the daemon answered in an unexpected shape; is it another shard version?\n",
    );
    return undefined;
  }
  return response.data;
}
