/**
 * One request to the local daemon over its unix socket, on the shared request channel
 * (src/client): connect, send the command, resolve with its `response`, close. No timeout:
 * `subagent.wait` may block as long as its own timeout says. Aborting settles at once and
 * closes the connection, which for `subagent.wait` cancels only the waiting.
 */
import { type Command, RequestChannel } from "../client/request-channel.ts";
import { unixSocketConnect } from "../client/unix-socket-connect.ts";
import type { WireError } from "../wire/errors.ts";
import { asResponse } from "../wire/validate.ts";

export interface DaemonAnswer {
  success: boolean;
  data?: unknown;
  error?: WireError;
}

export async function daemonRequest(
  socketPath: string,
  command: Command,
  signal: AbortSignal,
): Promise<DaemonAnswer> {
  const channel = new RequestChannel(
    {
      connect: unixSocketConnect(socketPath),
      idPrefix: `tool-${crypto.randomUUID()}-`,
      readResponse: asResponse,
    },
    { message: () => {} },
  );
  const opened = await channel.open();
  if (!opened.ok) {
    const message = `cannot reach the daemon: ${opened.error.message}`;
    return { success: false, error: { code: opened.error.code, message } };
  }
  try {
    const result = await channel.request(command, { signal, timeoutMs: Infinity });
    if (!result.ok) return { success: false, error: result.error };
    const { success, data, error } = result.response;
    return { success, ...(data !== undefined ? { data } : {}), ...(error !== undefined ? { error } : {}) };
  } finally {
    channel.close("the tool call is over");
  }
}
