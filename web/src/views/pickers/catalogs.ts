/**
 * What the selected agent's runtime can list (docs/protocol.md §10.1): modes, models and the active
 * model's reasoning levels, each fetched only when `sync.capabilities` advertises it, and again
 * when the runtime is replaced (runtime_epoch) or, for levels, the model changes. The active
 * value a picker shows comes from the snapshot, which `mode_changed` / `model_changed` /
 * `reasoning_level_changed` keep current for every client.
 */
import { type Accessor, createResource, type Resource } from "solid-js";
import type { CallOf } from "../../../../src/client/command-result.ts";
import type {
  ListModelsResult,
  ListModesResult,
  ListReasoningLevelsResult,
} from "../../../../src/types/agent-results.ts";
import type { ResultMap } from "../../../../src/types/command-table.ts";
import { loaded } from "../../state/attempt.ts";
import type { ControlRoom } from "../../state/control-room.ts";

export const CAPABILITIES = {
  modes: ["mode-catalog", "mode-switch"],
  models: ["model-catalog", "model-switch"],
  reasoning: ["reasoning-catalog", "reasoning-switch"],
} as const;

export type Control = keyof typeof CAPABILITIES;

export function advertises(capabilities: readonly string[] | undefined, control: Control): boolean {
  return capabilities !== undefined && CAPABILITIES[control].every((c) => capabilities.includes(c));
}

export interface Catalogs {
  modes: Resource<ListModesResult | undefined>;
  models: Resource<ListModelsResult | undefined>;
  reasoning: Resource<ListReasoningLevelsResult | undefined>;
}

/** A key that changes when the list must be fetched again; false while the control is hidden. */
function keyOf(room: ControlRoom, agentId: Accessor<string | undefined>, control: Control): string | false {
  const id = agentId();
  if (id === undefined) return false;
  // Only once this connection's `sync` is in: before that the daemon answers NOT_ATTACHED.
  const opening = room.attached(id)();
  if (opening === false) return false;
  const snapshot = room.snapshot(id)();
  if (snapshot === undefined || !advertises(snapshot.capabilities, control)) return false;
  const model = control === "reasoning" ? (snapshot.model?.id ?? "") : "";
  // The opening too: after a reconnect (a daemon restart) every catalog is asked again.
  return `${id}\n${snapshot.runtime_epoch ?? 0}\n${model}\n${opening}`;
}

/** The catalog, checked by the typed call; a failure is a notice and the picker stays hidden. */
async function fetchCatalog<T extends "list_modes" | "list_models" | "list_reasoning_levels">(
  room: ControlRoom,
  call: CallOf<T> & { agent_id: string },
): Promise<ResultMap[T] | undefined> {
  return loaded(await room.attempt(() => room.connection.call(call), call.agent_id));
}

export function createCatalogs(room: ControlRoom, agentId: Accessor<string | undefined>): Catalogs {
  const idOf = (key: string) => key.split("\n")[0] ?? "";
  const [modes] = createResource(
    () => keyOf(room, agentId, "modes"),
    (key) => fetchCatalog(room, { type: "list_modes", agent_id: idOf(key) }),
  );
  const [models] = createResource(
    () => keyOf(room, agentId, "models"),
    (key) => fetchCatalog(room, { type: "list_models", agent_id: idOf(key) }),
  );
  const [reasoning] = createResource(
    () => keyOf(room, agentId, "reasoning"),
    (key) => fetchCatalog(room, { type: "list_reasoning_levels", agent_id: idOf(key) }),
  );
  return { modes, models, reasoning };
}
