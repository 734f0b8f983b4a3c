/**
 * The direct transport: JSONL on stdin/stdout, bound to one agent (PROTOCOL §2.1, §5.2).
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
    role: "interactive",
    send: (message) => out.write(encodeJsonLine(message)),
  };
}

/**
 * Serves `input` until EOF, then closes the runtime (a dead parent leaves no orphan agent).
 * The caller attaches the connection first (hello + sync go out before any input is read).
 */
export async function serveStdio(
  runtime: AgentRuntime,
  input: AsyncIterable<Uint8Array>,
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
  const reader = input[Symbol.asyncIterator]();
  const stopped = new Promise<"stop">((resolve) => {
    if (options.stop?.aborted) resolve("stop");
    options.stop?.addEventListener("abort", () => resolve("stop"), { once: true });
  });
  for (;;) {
    const next = await Promise.race([reader.next(), stopped]);
    if (next === "stop" || next.done) break;
    decoder.push(next.value);
  }
  if (!options.stop?.aborted) decoder.end();
  await chain;
  runtime.detach(connection.id);
  await runtime.close();
}
