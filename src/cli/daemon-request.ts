/**
 * One request to the running daemon over its unix socket (local trust, PROTOCOL §4.2): connect,
 * read the hello, send the command, return its response, hang up. For the CLI's daemon commands.
 */
import { join } from "node:path";
import type { Response } from "../types/response.ts";
import { JsonlDecoder } from "../wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../wire/jsonl-encoder.ts";
import { asResponse } from "../wire/validate.ts";

export type DaemonRequestResult = { ok: true; response: Response } | { ok: false; message: string };

const REQUEST_ID = "cli-1";

export async function daemonRequest(
  home: string,
  command: { type: string; [field: string]: unknown },
): Promise<DaemonRequestResult> {
  const path = join(home, "daemon.sock");
  let settle!: (result: DaemonRequestResult) => void;
  const done = new Promise<DaemonRequestResult>((resolve) => {
    settle = resolve;
  });
  const decoder = new JsonlDecoder({
    value: (value) => {
      const response = asResponse(value);
      if (response?.id === REQUEST_ID) settle({ ok: true, response });
    },
    error: (error) => settle({ ok: false, message: `the daemon sent a bad line: ${error.message}` }),
  });
  let socket: Awaited<ReturnType<typeof Bun.connect>>;
  try {
    socket = await Bun.connect({
      unix: path,
      socket: {
        data: (_s, chunk) => decoder.push(chunk),
        close: () => settle({ ok: false, message: "the daemon closed the connection before answering" }),
        error: (_s, err) => settle({ ok: false, message: err.message }),
      },
    });
  } catch {
    return {
      ok: false,
      message: `no daemon is running for SHARD_HOME=${home}; start one with \`shard daemon\``,
    };
  }
  socket.write(encodeJsonLine({ ...command, id: REQUEST_ID }));
  socket.flush();
  const result = await done;
  socket.end();
  return result;
}
