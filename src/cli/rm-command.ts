/**
 * `shard rm <agent> [--session]`: deletes one agent of the running daemon for good
 * (`agent.delete`, docs/protocol-additions.md §15), its session too with `--session`.
 */

import { shardHome } from "../support/shard-home.ts";
import { terminalLine } from "../terminal/terminal-text.ts";
import { requestResult } from "./daemon-request.ts";
import { DaemonStream } from "./daemon-stream.ts";
import { parseFlags, reportUsageError, UsageError } from "./flags.ts";
import { resolveAgent } from "./resolve-agent.ts";

export const RM_HELP = `Usage: shard rm <agent> [--session]

Deletes an agent of the running daemon for good: its runtime is killed (work in progress is
lost) and it leaves every list. <agent> is an agent id, a unique id prefix, or a unique name
(shard ls lists them). Its session stays (the web client's session list can reopen it)
unless --session is given.

  --session   delete the agent's session files (and their forks) too
`;

const OPTIONS = { session: { type: "boolean" }, help: { type: "boolean", short: "h" } } as const;
const NAME = "shard rm";

export async function rmCommand(argv: string[]): Promise<number> {
  let target: string;
  let session = false;
  try {
    const { values, positionals } = parseFlags(argv, OPTIONS, true);
    if (values.help) {
      process.stdout.write(RM_HELP);
      return 0;
    }
    if (positionals.length !== 1 || positionals[0] === undefined) {
      throw new UsageError("name one agent (shard ls lists them)");
    }
    target = positionals[0];
    session = values.session === true;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return reportUsageError("rm", err.message);
  }
  const opened = await DaemonStream.open(shardHome(process.env));
  if (!opened.ok) {
    process.stderr.write(`${NAME}: ${opened.message}\n`);
    return 1;
  }
  const stream = opened.stream;
  try {
    const request = stream.request.bind(stream);
    const list = await requestResult(NAME, request, { type: "agent.list" });
    if (list === undefined) return 1;
    const found = resolveAgent(list.agents, target);
    if (typeof found === "string") {
      process.stderr.write(`${NAME}: ${terminalLine(found)}\n`);
      return 1;
    }
    const agentId = found.agent_id;
    const deleted = await requestResult(NAME, request, {
      type: "agent.delete",
      agent_id: agentId,
      ...(session ? { session: true } : {}),
    });
    if (deleted === undefined) return 1;
    const label = terminalLine(found.display_name ?? found.name ?? agentId);
    process.stdout.write(
      `deleted ${label === agentId ? agentId : `${label} (${agentId})`}${session ? " and its session" : ""}\n`,
    );
    return 0;
  } finally {
    stream.close();
  }
}
