/** `response.data` of the per-agent control commands (PROTOCOL §9.2). */
import { type Static, Type } from "@sinclair/typebox";
import { ModeDescriptorSchema, ReasoningLevelSchema, SwitchEffectiveSchema } from "./controls.ts";
import { ModelDescriptorSchema } from "./shared.ts";

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
