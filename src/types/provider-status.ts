/**
 * `provider.status` (our addition, docs/protocol-additions.md §12): whether the agents this
 * daemon starts have a model provider, so a client can explain how to add one before the first
 * prompt fails. Daemon-level request/response, no routing `agent_id`; secret-free (names of
 * variables, never their values).
 */
import { type Static, Type } from "@sinclair/typebox";
import { requiredCommandId } from "./envelope.ts";

export const ProviderStatusCommandSchema = Type.Object(
  { type: Type.Literal("provider.status"), id: requiredCommandId },
  { $id: "ProviderStatusCommand" },
);
export type ProviderStatusCommand = Static<typeof ProviderStatusCommandSchema>;

export const LocalServerFoundSchema = Type.Object(
  {
    /** "Ollama", "LM Studio", … or "a local server". */
    name: Type.String(),
    /** OpenAI-style base URL with `/v1`, on 127.0.0.1. */
    base_url: Type.String(),
    /** `openai/<id>`: the model a new agent will use. */
    model: Type.String(),
  },
  { $id: "LocalServerFound" },
);
export type LocalServerFound = Static<typeof LocalServerFoundSchema>;

export const ProviderStatusResultSchema = Type.Object(
  {
    /**
     * `environment`: a variable names a model, key or server; `models_file`: models.json lists
     * models; `local_server`: nothing is configured but a local server answered (agents use it);
     * `none`: nothing at all — a prompt would fail.
     */
    source: Type.Union([
      Type.Literal("environment"),
      Type.Literal("models_file"),
      Type.Literal("local_server"),
      Type.Literal("none"),
    ]),
    /** The variables that would configure a provider (names only). */
    env_vars: Type.Array(Type.String()),
    /** Where the daemon reads models.json. */
    models_file: Type.String(),
    local_server: Type.Optional(LocalServerFoundSchema),
    /** What to do, in a sentence or two (the same text a first prompt would fail with). */
    message: Type.String(),
  },
  { $id: "ProviderStatusResult" },
);
export type ProviderStatusResult = Static<typeof ProviderStatusResultSchema>;
