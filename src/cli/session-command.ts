/**
 * `shard session export|import <session_id>`: the daemon's copy of a session on a placement
 * (docs/placements.md, sessions). Not meant for people: the daemon runs it through the placement.
 */
import { readFileSync } from "node:fs";
import { importSession, SESSION_ID, sessionFileOf } from "../placements/session-transfer.ts";
import { describeError } from "../support/describe-error.ts";
import { shardHome } from "../support/shard-home.ts";
import { parseFlags, reportUsageError, UsageError } from "./flags.ts";

export const SESSION_HELP = `Usage: shard session export <session_id>
       shard session import <session_id>

export prints the file of session <session_id> under $SHARD_HOME/sessions (a fork's too);
import reads one on stdin and writes it there (a missing one at the top level) unless the file
there has lines the copy lacks (it prints imported, kept or same). The daemon keeps its copy of
a placement's sessions with these (docs/placements.md).
`;

export async function sessionCommand(argv: string[]): Promise<number> {
  let action: string | undefined;
  let sessionId: string | undefined;
  try {
    const { values, positionals } = parseFlags(
      argv,
      { help: { type: "boolean", short: "h" } } as const,
      true,
    );
    if (values.help) {
      process.stdout.write(SESSION_HELP);
      return 0;
    }
    [action, sessionId] = positionals;
    if ((action !== "export" && action !== "import") || positionals.length !== 2 || sessionId === undefined)
      throw new UsageError("use: shard session export|import <session_id>");
    if (!SESSION_ID.test(sessionId)) throw new UsageError(`"${sessionId.slice(0, 40)}" is not a session id`);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return reportUsageError("session", err.message);
  }
  const home = shardHome(process.env);
  try {
    if (action === "export") {
      const file = sessionFileOf(home, sessionId);
      if (file === undefined) throw new Error(`no session ${sessionId} in ${home}`);
      process.stdout.write(readFileSync(file));
      return 0;
    }
    const copy = new Uint8Array(await Bun.stdin.arrayBuffer());
    process.stdout.write(`${importSession(home, sessionId, copy)}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`shard session: ${describeError(err)}\n`);
    return 1;
  }
}
