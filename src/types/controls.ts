/** The model, mode and reasoning-level descriptors of the pickers (docs/protocol.md §10.1). */
import { type Static, Type } from "@sinclair/typebox";

/** Secret-free mode descriptor: mode functions and policy hooks never cross the wire. */
export const ModeDescriptorSchema = Type.Object(
  { name: Type.String({ minLength: 1 }), description: Type.String() },
  { $id: "ModeDescriptor" },
);
export type ModeDescriptor = Static<typeof ModeDescriptorSchema>;

/** One server-authored reasoning effort of the active model; clients never hard-code ids. */
export const ReasoningLevelSchema = Type.Object(
  { id: Type.String({ minLength: 1 }), label: Type.String(), description: Type.Optional(Type.String()) },
  { $id: "ReasoningLevel" },
);
export type ReasoningLevel = Static<typeof ReasoningLevelSchema>;

/** Model and reasoning switches apply at the next provider-call boundary, never mid-stream. */
export const SwitchEffectiveSchema = Type.Literal("next_provider_call", { $id: "SwitchEffective" });
export type SwitchEffective = Static<typeof SwitchEffectiveSchema>;

export const ModelDescriptorSchema = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    provider: Type.String({ minLength: 1 }),
    model: Type.String({ minLength: 1 }),
    context_window: Type.Optional(Type.Number()),
    /**
     * In `list_models` only (protocol-additions §16): why no provider can serve this model (no API
     * key, bad base URL); absent when one can. Choosing it is refused with the same text.
     */
    unavailable: Type.Optional(Type.String()),
  },
  { $id: "ModelDescriptor" },
);
export type ModelDescriptor = Static<typeof ModelDescriptorSchema>;
