/**
 * The `shard agent` arguments of a generation. The first one creates the session with the
 * manifest's model and mode; later ones resume it, so a `set_model`/`set_mode` the session
 * recorded wins over the creation-time choice.
 */
import type { AgentManifest } from "./manifest.ts";

export function runtimeArgs(manifest: AgentManifest): string[] {
  const args = ["agent", "--cwd", manifest.cwd];
  if (manifest.session_id !== undefined) {
    args.push("--session", manifest.session_id);
  } else {
    if (manifest.model !== undefined) args.push("--model", manifest.model);
    if (manifest.mode !== undefined) args.push("--mode", manifest.mode);
  }
  if (manifest.tools !== undefined) args.push("--tools", manifest.tools.join(","));
  return args;
}
