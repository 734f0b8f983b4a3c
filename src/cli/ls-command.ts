/**
 * `shard ls [--json]`: the daemon's agents with their status, one line each; subagents are
 * indented under their parent. Names and paths are untrusted text: escaped for the terminal.
 */

import { shardHome } from "../support/shard-home.ts";
import { terminalLine } from "../terminal/terminal-text.ts";
import type { AgentInfo } from "../types/agent-info.ts";
import { daemonRequest, requestResult } from "./daemon-request.ts";
import { parseFlags, reportUsageError, UsageError } from "./flags.ts";

export const LS_HELP = `Usage: shard ls [--json]

Lists the running daemon's agents: id, name, status, runtime state, model and working
directory (talks to the daemon over $SHARD_HOME/daemon.sock).

  --json   print the daemon's AgentInfo array instead
`;

const OPTIONS = { json: { type: "boolean" }, help: { type: "boolean", short: "h" } } as const;

export async function lsCommand(argv: string[]): Promise<number> {
  let json = false;
  try {
    const { values } = parseFlags(argv, OPTIONS, false);
    if (values.help) {
      process.stdout.write(LS_HELP);
      return 0;
    }
    json = values.json === true;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return reportUsageError("ls", err.message);
  }
  const home = shardHome(process.env);
  const data = await requestResult("shard ls", (c) => daemonRequest(home, c), { type: "agent.list" });
  if (data === undefined) return 1;
  if (json) {
    process.stdout.write(`${JSON.stringify(data.agents)}\n`);
    return 0;
  }
  if (data.agents.length === 0) {
    process.stdout.write("no agents yet; create one from the web client or with the SDK\n");
    return 0;
  }
  process.stdout.write(formatAgentTable(data.agents));
  return 0;
}

const HEADER = ["AGENT", "NAME", "STATUS", "RUNTIME", "MODEL", "CWD"];

function formatAgentTable(agents: AgentInfo[]): string {
  const rows = orderByParent(agents).map(({ info, depth }) => [
    `${"  ".repeat(depth)}${info.agent_id}`,
    terminalLine(info.display_name ?? info.name ?? "-"),
    info.status,
    info.runtime_state,
    terminalLine(info.model ?? "-"),
    terminalLine(info.cwd),
  ]);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    `${cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd()}\n`;
  return [HEADER, ...rows].map(line).join("");
}

/** Parents first (by creation), each followed by its children; an orphan stays at the top level. */
function orderByParent(agents: AgentInfo[]): { info: AgentInfo; depth: number }[] {
  const byCreation = [...agents].sort((a, b) => a.created_at - b.created_at);
  const ids = new Set(byCreation.map((a) => a.agent_id));
  const children = new Map<string, AgentInfo[]>();
  for (const a of byCreation) {
    if (a.parent_agent_id !== undefined && ids.has(a.parent_agent_id)) {
      children.set(a.parent_agent_id, [...(children.get(a.parent_agent_id) ?? []), a]);
    }
  }
  const out: { info: AgentInfo; depth: number }[] = [];
  const visit = (info: AgentInfo, depth: number) => {
    out.push({ info, depth });
    for (const child of children.get(info.agent_id) ?? []) visit(child, depth + 1);
  };
  for (const a of byCreation) if (a.parent_agent_id === undefined || !ids.has(a.parent_agent_id)) visit(a, 0);
  return out;
}
