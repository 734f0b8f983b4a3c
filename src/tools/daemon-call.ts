/**
 * One typed command to the daemon on the shared request channel (src/client): connect, send,
 * resolve with its checked result, close. The way there is the caller's: the daemon's unix
 * socket (a local runtime, or one on an ssh placement through the forwarded socket) or the
 * runtime's own stdio (`--daemon-link stdio`, src/agent/requests/daemon-link.ts). Aborting
 * settles at once and closes the connection, which for `subagent.wait` cancels only the waiting.
 */

import type { Connect } from "../client/channel-transport.ts";
import { type CallOf, checkResult } from "../client/command-result.ts";
import { type Command, RequestChannel } from "../client/request-channel.ts";
import { unixSocketConnect } from "../client/unix-socket-connect.ts";
import type { CommandType, ResultMap } from "../types/command-table.ts";
import { type Failure, failure } from "../wire/errors.ts";
import { sharedCheck } from "../wire/schema-check.ts";
import { asResponse } from "../wire/validate.ts";

/** How a runtime reaches its daemon, and how long each command may take there. */
export interface DaemonRoute {
  connect: Connect;
  timeoutMs(command: Command): number;
}

/**
 * The daemon's unix socket. No timeout: `subagent.wait` may block as long as its own timeout
 * says, and a daemon gone closes the connection.
 */
export function socketRoute(socketPath: string): DaemonRoute {
  return { connect: unixSocketConnect(socketPath), timeoutMs: () => Infinity };
}

export async function daemonCall<T extends CommandType>(
  route: DaemonRoute,
  command: CallOf<T>,
  signal: AbortSignal,
): Promise<{ ok: true; result: ResultMap[T] } | Failure> {
  const channel = new RequestChannel(
    {
      connect: route.connect,
      idPrefix: `tool-${crypto.randomUUID()}-`,
      readResponse: asResponse,
    },
    { message: () => {} },
  );
  const opened = await channel.open();
  if (!opened.ok) return failure(opened.error.code, `cannot reach the daemon: ${opened.error.message}`);
  try {
    const sent = await channel.request(command, { signal, timeoutMs: route.timeoutMs(command) });
    if (!sent.ok) return sent;
    const { response } = sent;
    if (!response.success) {
      return {
        ok: false,
        error: response.error ?? { code: "INTERNAL_ERROR", message: "failed without an error" },
      };
    }
    return checkResult(command.type, response.data, sharedCheck);
  } finally {
    channel.close("the tool call is over");
  }
}
