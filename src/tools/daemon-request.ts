/**
 * One request to the local daemon over its unix socket (PROTOCOL §4.2): connect, read
 * `hello`, send the command, resolve with its `response`, close. Aborting closes the
 * connection, which for `subagent.wait` cancels only the waiting.
 */
import { JsonlDecoder } from "../wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../wire/jsonl-encoder.ts";

export interface DaemonAnswer {
  success: boolean;
  data?: unknown;
  error?: { code: string; message: string };
}

export async function daemonRequest(
  socketPath: string,
  command: object,
  signal: AbortSignal,
): Promise<DaemonAnswer> {
  const id = `tool-${crypto.randomUUID()}`;
  let settle!: (answer: DaemonAnswer) => void;
  const answered = new Promise<DaemonAnswer>((resolve) => {
    settle = resolve;
  });
  const fail = (message: string) => settle({ success: false, error: { code: "INTERNAL_ERROR", message } });
  const decoder = new JsonlDecoder({
    value: (value) => {
      if (typeof value !== "object" || value === null) return;
      const m = value as Record<string, unknown>;
      if (m.type === "response" && m.id === id) {
        const error = m.error as DaemonAnswer["error"];
        settle({ success: m.success === true, data: m.data, ...(error ? { error } : {}) });
      }
    },
    error: (e) => fail(`bad line from the daemon: ${e.message}`),
  });
  let socket: Awaited<ReturnType<typeof Bun.connect>>;
  try {
    socket = await Bun.connect({
      unix: socketPath,
      socket: {
        data: (_s, chunk) => decoder.push(chunk),
        close: () => fail("the daemon closed the connection before answering"),
        error: (_s, err) => fail(err.message),
      },
    });
  } catch (err) {
    return {
      success: false,
      error: {
        code: "INTERNAL_ERROR",
        message: `cannot reach the daemon at ${socketPath}: ${(err as Error).message}; is \`shard daemon\` running?`,
      },
    };
  }
  const onAbort = () => fail("aborted");
  signal.addEventListener("abort", onAbort, { once: true });
  socket.write(encodeJsonLine({ ...command, id }));
  socket.flush();
  try {
    return await answered;
  } finally {
    signal.removeEventListener("abort", onAbort);
    socket.end();
  }
}
