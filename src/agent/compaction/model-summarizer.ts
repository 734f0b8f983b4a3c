/**
 * The optional LLM summarizer for compaction (`config.json` compaction.summarizer: "model"):
 * asks the active model for a summary of the compacted messages. The session library falls
 * back to the deterministic digest when this fails.
 */
import type { Summarizer } from "../../session/compaction/summarizer.ts";
import type { ModelController } from "../models/model-controller.ts";

const INSTRUCTIONS = `Summarize the conversation below for a coding agent that will continue the work.
Keep: the user's requests, decisions made, files read and changed, commands run and their outcomes,
open problems and the next steps. Be factual and concise. Output markdown only.`;

/** `signal` cancels the request (an `abort` during compaction); a stuck model gives up after 2 min. */
export function modelSummarizer(models: ModelController, signal: AbortSignal): Summarizer {
  return async (input) => {
    const selected = models.providerForNextCall();
    if (!selected.ok) throw new Error(selected.error.message);
    const transcript = input.messages
      .map((m) => `${m.role}: ${m.content.map((b) => ("text" in b ? b.text : JSON.stringify(b))).join("\n")}`)
      .join("\n\n");
    const previous = input.previousSummary ? `Previous summary:\n${input.previousSummary}\n\n` : "";
    let text = "";
    for await (const event of selected.provider.stream({
      model: selected.spec.model,
      system: INSTRUCTIONS,
      messages: [
        {
          id: "summary-request",
          role: "user",
          content: [{ type: "text", text: `${previous}${transcript}` }],
        },
      ],
      tools: [],
      maxOutputTokens: Math.min(4096, selected.spec.max_output),
      signal: AbortSignal.any([signal, AbortSignal.timeout(120_000)]),
    })) {
      if (event.type === "text_delta") text += event.text;
      if (event.type === "error") throw new Error(event.message);
    }
    return text.trim();
  };
}
