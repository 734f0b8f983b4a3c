/** Permission and UI requests (docs/protocol.md §5.3). */
import { type Static, Type } from "@sinclair/typebox";
import { RenderDescriptorSchema } from "./render.ts";
import { SandboxModeSchema } from "./sandbox.ts";

const agentId = Type.Optional(Type.String({ minLength: 1 }));
const id = Type.Optional(Type.String());
const requestId = Type.String({ minLength: 1 });

export const PermissionDecisionSchema = Type.Union([
  Type.Literal("allow"),
  Type.Literal("allow_always"),
  Type.Literal("deny"),
]);
export type PermissionDecision = Static<typeof PermissionDecisionSchema>;

export const PermissionDetailSchema = Type.Object({
  label: Type.Optional(Type.String()),
  value: Type.String(),
  format: Type.Optional(
    Type.Union([Type.Literal("text"), Type.Literal("command"), Type.Literal("path"), Type.Literal("code")]),
  ),
});
export type PermissionDetail = Static<typeof PermissionDetailSchema>;

export const PermissionChoiceSchema = Type.Object({
  id: Type.String({ minLength: 1 }),
  label: Type.String(),
  description: Type.Optional(Type.String()),
  accelerator: Type.Optional(Type.String()),
  intent: Type.Union([Type.Literal("allow"), Type.Literal("persist"), Type.Literal("deny")]),
});
export type PermissionChoice = Static<typeof PermissionChoiceSchema>;

export const PermissionRequestSchema = Type.Object(
  {
    type: Type.Literal("permission_request"),
    agent_id: agentId,
    seq: Type.Optional(Type.Number()),
    request_id: requestId,
    tool_name: Type.String(),
    input: Type.Unknown(),
    prompt: Type.String(),
    options: Type.Array(PermissionDecisionSchema),
    details: Type.Optional(Type.Array(PermissionDetailSchema)),
    choices: Type.Optional(Type.Array(PermissionChoiceSchema)),
    /**
     * Additive: what the call would change, computed before asking — `edit`'s diff, `write`'s
     * diff against the file there or its new content — so the change is seen before it is allowed.
     */
    preview: Type.Optional(RenderDescriptorSchema),
    /**
     * Additive (protocol-additions §18): for `bash` where a sandbox exists, the mode the command
     * would run in; `off` means it asks to run outside the sandbox.
     */
    sandbox: Type.Optional(SandboxModeSchema),
  },
  { $id: "PermissionRequest" },
);
export type PermissionRequest = Static<typeof PermissionRequestSchema>;

/**
 * Exactly one of `choice_id` / `decision`. Mutual exclusion is checked by the validator's
 * cross-field rule (src/wire), since a JSON Schema `oneOf` would name no field on failure.
 */
export const PermissionResponseSchema = Type.Object(
  {
    type: Type.Literal("permission_response"),
    id,
    agent_id: agentId,
    request_id: requestId,
    choice_id: Type.Optional(Type.String({ minLength: 1 })),
    decision: Type.Optional(PermissionDecisionSchema),
    reason: Type.Optional(Type.String()),
    /**
     * Additive (the daemon's headless path sets it, docs/protocol.md §5.3): who answered, echoed in
     * `permission_resolved.source`. Without it the answering connection's id is used.
     */
    source: Type.Optional(Type.String({ minLength: 1 })),
  },
  { $id: "PermissionResponse" },
);
export type PermissionResponse = Static<typeof PermissionResponseSchema>;

export const PermissionResolvedSchema = Type.Object(
  {
    type: Type.Literal("permission_resolved"),
    agent_id: agentId,
    seq: Type.Optional(Type.Number()),
    request_id: requestId,
    decision: Type.Optional(PermissionDecisionSchema),
    choice_id: Type.Optional(Type.String()),
    source: Type.Optional(Type.String()),
  },
  { $id: "PermissionResolved" },
);
export type PermissionResolved = Static<typeof PermissionResolvedSchema>;

export const UiKindSchema = Type.Union([
  Type.Literal("select"),
  Type.Literal("confirm"),
  Type.Literal("input"),
  Type.Literal("editor"),
  Type.Literal("notify"),
]);

export const UiRequestSchema = Type.Object(
  {
    type: Type.Literal("ui_request"),
    agent_id: agentId,
    seq: Type.Optional(Type.Number()),
    request_id: requestId,
    kind: UiKindSchema,
    title: Type.Optional(Type.String()),
    message: Type.Optional(Type.String()),
    options: Type.Optional(Type.Array(Type.String())),
    placeholder: Type.Optional(Type.String()),
    prefill: Type.Optional(Type.String()),
    notify_type: Type.Optional(
      Type.Union([Type.Literal("info"), Type.Literal("warning"), Type.Literal("error")]),
    ),
  },
  { $id: "UiRequest" },
);
export type UiRequest = Static<typeof UiRequestSchema>;

export const UiResponseSchema = Type.Object(
  {
    type: Type.Literal("ui_response"),
    id,
    agent_id: agentId,
    request_id: requestId,
    value: Type.Union([Type.String(), Type.Array(Type.String()), Type.Null()]),
  },
  { $id: "UiResponse" },
);
export type UiResponse = Static<typeof UiResponseSchema>;

export const UiResolvedSchema = Type.Object(
  {
    type: Type.Literal("ui_resolved"),
    agent_id: agentId,
    seq: Type.Optional(Type.Number()),
    request_id: requestId,
    value: Type.Unknown(),
  },
  { $id: "UiResolved" },
);
export type UiResolved = Static<typeof UiResolvedSchema>;
