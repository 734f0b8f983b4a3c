/**
 * Where the transcript draws each failure: after the row of the message it follows. A failure
 * that follows a tool-result message drawn inside its call's card goes after the nearest row
 * before it. Failures whose message left the window are not drawn.
 */
import type { Image, Message } from "../../../../src/types/messages.ts";
import type { TurnFailure } from "../../../../src/types/turn-failures.ts";

export function failuresByRow(
  messages: readonly Message[],
  rows: readonly Message[],
  failures: readonly TurnFailure[] | undefined,
): ReadonlyMap<string, TurnFailure[]> {
  const byRow = new Map<string, TurnFailure[]>();
  if (failures === undefined || failures.length === 0) return byRow;
  const shown = new Set(rows.map((m) => m.id));
  const at = new Map(messages.map((m, i) => [m.id, i]));
  for (const failure of failures) {
    let i = failure.after_message_id === undefined ? undefined : at.get(failure.after_message_id);
    if (i === undefined) continue;
    while (i >= 0 && !shown.has(messages[i]?.id ?? "")) i--;
    const row = messages[i]?.id;
    if (row === undefined) continue;
    byRow.set(row, [...(byRow.get(row) ?? []), failure]);
  }
  return byRow;
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
