/**
 * Where the transcript draws each failure: after the row of the message it follows
 * (transcript/after-row.ts).
 */
import type { Image, Message } from "../../../../src/types/messages.ts";
import type { TurnFailure } from "../../../../src/types/turn-failures.ts";
import { byRowAfter } from "../transcript/after-row.ts";

export function failuresByRow(
  messages: readonly Message[],
  rows: readonly Message[],
  failures: readonly TurnFailure[] | undefined,
): ReadonlyMap<string, TurnFailure[]> {
  return byRowAfter(messages, rows, failures, (f) => f.after_message_id);
}

/** What Retry sends: the prompt that started the failed turn (its text and images). */
export function retryPrompt(
  messages: readonly Message[],
  failure: TurnFailure,
): { message: string; images?: Image[] } | undefined {
  const prompt = messages.find((m) => m.id === failure.prompt_message_id);
  if (prompt === undefined) return undefined;
  const text = prompt.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
  const images = prompt.content.flatMap((b): Image[] =>
    b.type === "image" ? [{ type: "image", data: b.data, mime_type: b.mime_type }] : [],
  );
  return images.length > 0 ? { message: text, images } : { message: text };
}
