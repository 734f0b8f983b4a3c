/**
 * One typed command to the local daemon over its unix socket, on the shared request channel
 * (src/client): connect, send, resolve with its checked result, close. No timeout:
 * `subagent.wait` may block as long as its own timeout says. Aborting settles at once and
 * closes the connection, which for `subagent.wait` cancels only the waiting.
 */
import { type CallOf, checkResult } from "../client/command-result.ts";
import { RequestChannel } from "../client/request-channel.ts";
import { unixSocketConnect } from "../client/unix-socket-connect.ts";
import type { CommandType, ResultMap } from "../types/command-table.ts";
import { type Failure, failure } from "../wire/errors.ts";
import { sharedCheck } from "../wire/schema-check.ts";
import { asResponse } from "../wire/validate.ts";

export async function daemonCall<T extends CommandType>(
  socketPath: string,
  command: CallOf<T>,
  signal: AbortSignal,
): Promise<{ ok: true; result: ResultMap[T] } | Failure> {
  const channel = new RequestChannel(
    {
      connect: unixSocketConnect(socketPath),
      idPrefix: `tool-${crypto.randomUUID()}-`,
      readResponse: asResponse,
    },
    { message: () => {} },
  );
  const opened = await channel.open();
  if (!opened.ok) return failure(opened.error.code, `cannot reach the daemon: ${opened.error.message}`);
  try {
    const sent = await channel.request(command, { signal, timeoutMs: Infinity });
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
