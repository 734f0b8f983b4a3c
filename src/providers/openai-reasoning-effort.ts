/** A reasoning level id → the effort both OpenAI APIs take (`reasoning_effort`, `reasoning.effort`). */
import type { ReasoningEffort } from "openai/resources/shared";

type Effort = NonNullable<ReasoningEffort>;

/** Keyed by the SDK's own union: an effort it adds must be listed here. */
const EFFORTS: Record<Effort, true> = {
  none: true,
  minimal: true,
  low: true,
  medium: true,
  high: true,
  xhigh: true,
  max: true,
};

function isEffort(level: string): level is Effort {
  return Object.hasOwn(EFFORTS, level);
}

/** Throws for a level (a models.json `reasoning_levels` id) the API would refuse with a vaguer 400. */
export function reasoningEffort(level: string): Effort {
  if (isEffort(level)) return level;
  const accepted = Object.keys(EFFORTS).join(", ");
  throw new Error(`reasoning level "${level}" is not an OpenAI reasoning effort (one of ${accepted})`);
}
