/**
 * The direct transport: JSONL on stdin/stdout, bound to one agent (docs/protocol.md §1, §4).
 * Inbound messages are handled one at a time, in order.
 */
import type { Connection } from "../../contracts/connection.ts";
import { JsonlDecoder } from "../../wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../../wire/jsonl-encoder.ts";
import type { AgentRuntime } from "../runtime.ts";

export interface ByteSink {
  write(data: string): void;
}

export function createStdioConnection(out: ByteSink): Connection {
  return {
    id: "stdio",
    send: (message) => out.write(encodeJsonLine(message)),
  };
}

/**
 * Serves `input` until EOF or `stop`, then closes the runtime (a dead parent leaves no orphan
 * agent). The caller attaches the connection first (hello + sync go out before any input is
 * read); it stays attached until the runtime is closed, so the client sees the turn end.
 */
export async function serveStdio(
  runtime: AgentRuntime,
  input: ReadableStream<Uint8Array>,
  connection: Connection,
  options: { maxLineBytes?: number; stop?: AbortSignal } = {},
): Promise<void> {
  // The command surface (every protocol schema, compiled validators) loads after hello and
  // sync are out: start-up latency is what a client waits for.
  const commands = import("./commands.ts");
  let chain: Promise<unknown> = commands;
  const decoder = new JsonlDecoder(
    {
      value: (value) => {
        chain = chain.then(async () => (await commands).handleInbound(runtime, connection, value));
      },
      error: (error) => {
        chain = chain.then(async () => (await commands).replyUnparsable(runtime, connection, error));
      },
    },
    options,
  );
  const reader = input.getReader();
  const stopped = new Promise<"stop">((resolve) => {
    if (options.stop?.aborted) resolve("stop");
    options.stop?.addEventListener("abort", () => resolve("stop"), { once: true });
  });
  for (;;) {
    const next = await Promise.race([reader.read(), stopped]);
    if (next === "stop" || next.done) break;
    decoder.push(next.value);
  }
  let aborting: Promise<unknown> = Promise.resolve();
  if (options.stop?.aborted) {
    // A pending stdin read would keep the process alive after everything else has ended.
    void reader.cancel().catch(() => undefined);
    // Stop the turn first: a command in the chain (`abort`) may be waiting for it to end.
    aborting = runtime.abort();
  } else decoder.end();
  await chain;
  await aborting;
  await runtime.close();
  runtime.detach(connection.id);
}
