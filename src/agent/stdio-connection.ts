/**
 * The direct transport: JSONL on stdin/stdout, bound to one agent (PROTOCOL §2.1, §5.2).
 * Inbound messages are handled one at a time, in order.
 */
import type { Connection } from "../contracts/connection.ts";
import { JsonlDecoder } from "../wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../wire/jsonl-encoder.ts";
import { handleInbound, replyUnparsable } from "./commands.ts";
import type { AgentRuntime } from "./runtime.ts";

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
  options: { maxLineBytes?: number } = {},
): Promise<void> {
  let chain: Promise<void> = Promise.resolve();
  const decoder = new JsonlDecoder(
    {
      value: (value) => {
        chain = chain.then(() => handleInbound(runtime, connection, value));
      },
      error: (error) => {
        chain = chain.then(() => replyUnparsable(runtime, connection, error));
      },
    },
    options,
  );
  for await (const chunk of input) decoder.push(chunk);
  decoder.end();
  await chain;
  runtime.detach(connection.id);
  await runtime.close();
}
