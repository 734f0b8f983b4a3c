/**
 * Where `shard run` takes its prompt from: the words on the command line, or stdin — when
 * the only word is `-`, or when there are none and stdin is not a terminal
 * (`echo hi | shard run`). A terminal on stdin with no prompt is a usage error rather than a
 * silent wait for input the user does not know is wanted.
 */
import { UsageError } from "./flags.ts";

/** A prompt larger than this is surely a mistake (a whole file piped in by accident). */
export const MAX_STDIN_PROMPT_BYTES = 4 * 1024 * 1024;

export interface PromptSource {
  /** Whether stdin is a terminal. */
  stdinIsTty: boolean;
  /** stdin as a byte stream; read only when the prompt comes from there. */
  stdin: () => ReadableStream<Uint8Array>;
}

export async function readPrompt(positionals: readonly string[], source: PromptSource): Promise<string> {
  const fromStdin = positionals.length === 1 && positionals[0] === "-";
  if (!fromStdin && positionals.includes("-"))
    throw new UsageError("`-` (read the prompt from stdin) cannot be combined with a prompt argument");
  if (!fromStdin && positionals.length > 0) return nonEmpty(positionals.join(" ").trim());
  if (!fromStdin && source.stdinIsTty)
    throw new UsageError('a prompt is required: shard run "prompt", or pipe it on stdin');
  return nonEmpty((await readBounded(source.stdin(), MAX_STDIN_PROMPT_BYTES)).trim());
}

function nonEmpty(prompt: string): string {
  if (prompt === "") throw new UsageError('a prompt is required: shard run "prompt", or pipe it on stdin');
  return prompt;
}

async function readBounded(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      // Stop reading: the rest of the input is never buffered.
      await reader.cancel().catch(() => undefined);
      throw new UsageError(`the prompt on stdin is over ${maxBytes / (1024 * 1024)} MiB`);
    }
    text += decoder.decode(value, { stream: true });
  }
}
