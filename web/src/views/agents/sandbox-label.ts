/**
 * Words for an agent's OS sandbox (docs/sandbox.md): the short badge the header shows, the
 * longer sentence its tooltip gives (what can be written, what is hidden, what network), the
 * modes a person can pick, the notice a machine without a sandbox gets and a permission card's line.
 */
import type { SandboxMode, SandboxPolicy, SandboxState } from "../../../../src/types/sandbox.ts";

/** The modes a person can pick, strictest-but-usable first as the menu lists them. */
const SANDBOX_MODES: readonly SandboxMode[] = ["workspace-write", "read-only", "off"];

/** The modes this machine can give: without a sandbox only `off`. */
export function sandboxChoices(state: SandboxState): readonly SandboxMode[] {
  return state.unavailable !== undefined ? ["off"] : SANDBOX_MODES;
}

/** "sandbox: workspace-write", "sandbox: read-only", or "unsandboxed" for `off`. */
export function sandboxBadge(mode: SandboxMode): string {
  return mode === "off" ? "unsandboxed" : `sandbox: ${mode}`;
}

/** What the mode means for a command the agent runs, then the policy. */
export function sandboxDescription(state: SandboxState, cwd: string | undefined): string {
  return `${modeSentence(state, cwd)} ${policySentence(state.policy, state.mode)}`;
}

function modeSentence(state: SandboxState, cwd: string | undefined): string {
  if (state.mode === "off") {
    const asked = state.requested !== undefined ? ` (${state.requested} was asked for)` : "";
    return `Commands run unconfined, as you${asked}: they can write wherever you can, read your secrets and use the network.`;
  }
  const writable =
    state.mode === "read-only"
      ? "nothing but a private TMPDIR is writable"
      : `only the working directory${cwd !== undefined ? ` (${cwd})` : ""} and a private TMPDIR are writable`;
  const network =
    state.network_allow.length === 0
      ? "the network is off"
      : `the network reaches only ${state.network_allow.join(", ")}`;
  return `Commands run in a ${state.mechanism} sandbox: ${writable}; secrets and $SHARD_HOME are hidden; ${network}.`;
}

function policySentence(policy: SandboxPolicy, mode: SandboxMode): string {
  if (mode === "off") return `Policy ${policy}: it has no effect while commands are not confined.`;
  return policy === "auto-allow-sandboxed"
    ? "Policy auto-allow-sandboxed: a sandboxed command runs without asking; running one outside the sandbox is asked every time."
    : "Policy ask: a sandboxed command is asked like any other call; running one outside the sandbox is asked every time.";
}

/** The notice for an agent whose machine cannot confine commands, or undefined when it can. */
export function sandboxUnavailableNotice(state: SandboxState | undefined): string | undefined {
  const reason = state?.unavailable;
  return reason === undefined ? undefined : `No sandbox on this machine: commands run unconfined (${reason})`;
}

/**
 * What a permission card says about the sandbox (`permission_request.sandbox`): for a command,
 * the mode it would run in; for `set_sandbox`, what the agent's commands would run in from then on.
 */
export function permissionSandboxLine(toolName: string, mode: SandboxMode): string {
  if (toolName === "set_sandbox")
    return mode === "off"
      ? "Its commands would run outside the sandbox from now on: unconfined, as you, with your files, secrets and network."
      : `Its commands would run in the ${mode} sandbox from now on.`;
  return mode === "off"
    ? "Runs outside the sandbox: unconfined, as you, with your files, secrets and network."
    : `Runs sandboxed (${mode}).`;
}
