/**
 * What to check when a provider refuses its credentials (401/403): the variable or the
 * models.json field the key came from, so the message names the one thing to fix.
 */
import type { ModelSpec } from "../contracts/provider.ts";
import { isBuiltinProvider } from "./builtin-models.ts";

export function authHint(spec: Pick<ModelSpec, "provider" | "api_key" | "api_key_env">): string {
  const builtin = isBuiltinProvider(spec.provider);
  const where = builtin ? "" : ` (provider "${spec.provider}" in models.json)`;
  if (spec.api_key) return `check the "api_key" of provider "${spec.provider}" in models.json`;
  if (spec.api_key_env) return `check ${spec.api_key_env}${where}: its key was refused or lacks access`;
  return `no API key was sent: set "api_key_env" or "api_key" for provider "${spec.provider}" in models.json`;
}
