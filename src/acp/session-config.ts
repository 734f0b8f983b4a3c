/**
 * Shard's modes as ACP session modes, and Shard's model catalog as ACP's model selector (a
 * session config option of category `model`, the v1 way to pick a model), read from the
 * agent with `list_modes` and `list_models`.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { ListModelsResult, ListModesResult } from "../types/agent-results.ts";

export const MODEL_OPTION_ID = "model";

export function modeState(modes: ListModesResult): acp.SessionModeState {
  return {
    currentModeId: modes.active,
    availableModes: modes.modes.map((m) => ({ id: m.name, name: m.name, description: m.description })),
  };
}

export function modelOption(models: ListModelsResult): acp.SessionConfigOption {
  const listed = models.models.some((m) => m.id === models.active.id)
    ? models.models
    : [models.active, ...models.models];
  return {
    type: "select",
    id: MODEL_OPTION_ID,
    name: "Model",
    category: "model",
    currentValue: models.active.id,
    options: listed.map((m) => ({
      value: m.id,
      name: m.id,
      ...(m.unavailable !== undefined ? { description: `unavailable: ${m.unavailable}` } : {}),
    })),
  };
}
