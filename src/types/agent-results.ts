/** `response.data` of the per-agent control commands (docs/protocol.md §10.1). */
import { type Static, Type } from "@sinclair/typebox";
import { StreamingBehaviorSchema } from "./agent-commands.ts";
import {
  ModeDescriptorSchema,
  ModelDescriptorSchema,
  ReasoningLevelSchema,
  SwitchEffectiveSchema,
} from "./controls.ts";
import { SandboxModeSchema } from "./sandbox.ts";

/**
 * `set_sandbox`: `mode` is the mode commands run in now. `pending: true` means the change
 * loosens the sandbox and waits for the person's answer to a `permission_request`; the
 * outcome arrives as `sandbox_changed` (allowed) or not at all (denied).
 */
export const SetSandboxResultSchema = Type.Object(
  { mode: SandboxModeSchema, pending: Type.Boolean(), request_id: Type.Optional(Type.String()) },
  { $id: "SetSandboxResult" },
);
export type SetSandboxResult = Static<typeof SetSandboxResultSchema>;

export const SetModeResultSchema = Type.Object(
  { previous_mode: Type.String(), mode: Type.String() },
  { $id: "SetModeResult" },
);
export type SetModeResult = Static<typeof SetModeResultSchema>;

/** `active` always names an entry of `modes`. */
export const ListModesResultSchema = Type.Object(
  { modes: Type.Array(ModeDescriptorSchema), active: Type.String() },
  { $id: "ListModesResult" },
);
export type ListModesResult = Static<typeof ListModesResultSchema>;

export const ListModelsResultSchema = Type.Object(
  { models: Type.Array(ModelDescriptorSchema), active: ModelDescriptorSchema },
  { $id: "ListModelsResult" },
);
export type ListModelsResult = Static<typeof ListModelsResultSchema>;

/** Also the payload of the `model_changed` event. */
export const modelSwitchFields = {
  previous: ModelDescriptorSchema,
  active: ModelDescriptorSchema,
  effective: SwitchEffectiveSchema,
};

export const SetModelResultSchema = Type.Object(modelSwitchFields, { $id: "SetModelResult" });
export type SetModelResult = Static<typeof SetModelResultSchema>;

export const ListReasoningLevelsResultSchema = Type.Object(
  {
    model: ModelDescriptorSchema,
    levels: Type.Array(ReasoningLevelSchema),
    active: Type.String(),
    effective: SwitchEffectiveSchema,
  },
  { $id: "ListReasoningLevelsResult" },
);
export type ListReasoningLevelsResult = Static<typeof ListReasoningLevelsResultSchema>;

/** Also the payload of the `reasoning_level_changed` event. */
export const reasoningSwitchFields = {
  model: ModelDescriptorSchema,
  previous: Type.String(),
  active: Type.String(),
  effective: SwitchEffectiveSchema,
};

export const SetReasoningLevelResultSchema = Type.Object(reasoningSwitchFields, {
  $id: "SetReasoningLevelResult",
});
export type SetReasoningLevelResult = Static<typeof SetReasoningLevelResultSchema>;

/**
 * `prompt` and `steer`: no data when a turn starts; `queued` when it waits behind the running
 * turn. A steer the daemon delivers into a leased child's subagent run (docs/subagents.md) also
 * names the run and the correlation id its outcome is reported under.
 */
const promptAnswerFields = {
  queued: Type.Optional(StreamingBehaviorSchema),
  run_id: Type.Optional(Type.String({ minLength: 1 })),
  correlation_id: Type.Optional(Type.String({ minLength: 1 })),
};
export const PromptResultSchema = Type.Object(promptAnswerFields, { $id: "PromptResult" });
export type PromptResult = Static<typeof PromptResultSchema>;
export const SteerResultSchema = Type.Object(promptAnswerFields, { $id: "SteerResult" });
export type SteerResult = Static<typeof SteerResultSchema>;

/** `cleared_queued`: how many queued prompts the abort dropped (absent when none). */
export const AbortResultSchema = Type.Object(
  { cleared_queued: Type.Optional(Type.Integer({ minimum: 1 })) },
  { $id: "AbortResult" },
);
export type AbortResult = Static<typeof AbortResultSchema>;

/** Answers are accepted even when late or unknown (first answer wins): no data. */
export const PermissionResponseResultSchema = Type.Object({}, { $id: "PermissionResponseResult" });
export type PermissionResponseResult = Static<typeof PermissionResponseResultSchema>;
export const UiResponseResultSchema = Type.Object({}, { $id: "UiResponseResult" });
export type UiResponseResult = Static<typeof UiResponseResultSchema>;
