/**
 * The daemon's end of a runtime's stdio link (protocol-additions §27): what the registry hands
 * the link traffic of a generation on a `command` or `container` placement to. The daemon
 * (src/daemon/stdio-link.ts) answers each request as a command of a connection scoped to the
 * agent (src/daemon/agent-scope.ts).
 */
import type { AgentCommand } from "../../types/command-table.ts";
import type { RuntimeMessage } from "./runtime-process.ts";

export interface StdioLinkEnd {
  /** A `daemon_request`, or `daemon_cancel`, or the runtime's receipt for a `daemon_response`. */
  take(message: LinkTraffic, line: string): void;
  /** The generation ended: requests still open are dropped (their waits cancelled). */
  close(): void;
}

/** Opens the end of one generation; `toRuntime` writes to its stdin. */
export type OpenStdioLink = (agentId: string, toRuntime: (command: AgentCommand) => boolean) => StdioLinkEnd;

export type LinkTraffic = Extract<RuntimeMessage, { type: "daemon_request" | "daemon_cancel" | "response" }>;

/**
 * Whether a runtime's message belongs to the link, never to the agent's clients: it goes to the
 * link's end (or nowhere, for a runtime that has none), never to the broker.
 */
export function isLinkTraffic(message: RuntimeMessage): message is LinkTraffic {
  if (message.type === "daemon_request" || message.type === "daemon_cancel") return true;
  return message.type === "response" && message.command === "daemon_response";
}
