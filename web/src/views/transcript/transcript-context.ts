/**
 * What every part of one agent's transcript reads besides its own message: the results and
 * per-call records by tool_call_id, and which collapsible parts the user opened or closed. The
 * latter outlives the rows (the virtualized list unmounts rows scrolled away), so it lives here.
 */
import { createContext, createSignal, useContext } from "solid-js";
import type { ToolCallRecord } from "../../../../src/types/agent-events.ts";
import type { ToolResultBlock } from "../../../../src/types/messages.ts";

export interface Expansions {
  /** Whether part `key` is open; `fallback` until the user toggles it. */
  isOpen(key: string, fallback: boolean): boolean;
  set(key: string, open: boolean): void;
}

export interface TranscriptParts {
  results(): ReadonlyMap<string, ToolResultBlock>;
  records(): ReadonlyMap<string, ToolCallRecord>;
  expansions: Expansions;
}

/** The user's choices, bounded: the oldest are forgotten first (they fall back to the default). */
const MAX_CHOICES = 2_000;

export function createExpansions(): Expansions {
  const [choices, setChoices] = createSignal<ReadonlyMap<string, boolean>>(new Map());
  return {
    isOpen: (key, fallback) => choices().get(key) ?? fallback,
    set: (key, open) =>
      setChoices((current) => {
        const next = new Map(current);
        next.delete(key);
        next.set(key, open);
        if (next.size > MAX_CHOICES) {
          const oldest = next.keys().next();
          if (!oldest.done) next.delete(oldest.value);
        }
        return next;
      }),
  };
}

export const TranscriptContext = createContext<TranscriptParts>();

const NONE: ReadonlyMap<string, never> = new Map<string, never>();

/** Parts for a descriptor shown outside a transcript (a dialog's preview, a review): no calls, own expansions. */
export function standaloneParts(): TranscriptParts {
  return { results: () => NONE, records: () => NONE, expansions: createExpansions() };
}

export function useTranscript(): TranscriptParts {
  const parts = useContext(TranscriptContext);
  if (parts === undefined) throw new Error("transcript parts used outside a Transcript");
  return parts;
}
