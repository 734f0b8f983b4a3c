/**
 * `set_sandbox` (docs/protocol-additions.md §18): a stricter mode applies at once; a looser one
 * is an escalation the person allows or not, through a `permission_request` routed like any
 * other (first answer wins; with nobody to answer, the broker's headless policy denies). The
 * response does not wait for that answer — a client's request timeout must not depend on a
 * person — it says `pending`, and an allow shows as `sandbox_changed`. Every applied change is
 * recorded in the session first, so a resumed runtime keeps it.
 */
import type { PermissionAnswer, PermissionAsk } from "../../contracts/permission-gate.ts";
import { CHOICE_ALLOW_ONCE, CHOICE_DENY } from "../../permissions/permission-ask.ts";
import type { AgentSandbox } from "../../sandbox/agent-sandbox.ts";
import type { SetSandboxResult } from "../../types/agent-results.ts";
import { SANDBOX_STRICTNESS, type SandboxMode } from "../../types/sandbox.ts";
import type { Failure } from "../../wire/errors.ts";

export interface SandboxSwitchDeps {
  sandbox: AgentSandbox;
  /** Opens a question outside any turn; its id is known at once. */
  ask(ask: PermissionAsk): { requestId: string; answer: Promise<PermissionAnswer> };
  cancel(requestId: string, reason: string): void;
  /** Records the applied mode in the session, then announces `sandbox_changed`. */
  applied(mode: SandboxMode): void;
  /** An allowed escalation that could not be applied after all. */
  failed(message: string): void;
}

export class SandboxSwitch {
  /** The escalation still waiting for its answer; a newer `set_sandbox` replaces it. */
  private waiting: string | undefined;

  constructor(private readonly deps: SandboxSwitchDeps) {}

  set(mode: SandboxMode): { ok: true; result: SetSandboxResult } | Failure {
    const { sandbox } = this.deps;
    const current = sandbox.mode();
    if (this.waiting !== undefined) {
      this.deps.cancel(this.waiting, "superseded by a newer set_sandbox");
      this.waiting = undefined;
    }
    if (mode === current) return { ok: true, result: { mode, pending: false } };
    if (SANDBOX_STRICTNESS[mode] > SANDBOX_STRICTNESS[current]) {
      const applied = this.apply(mode);
      return applied.ok ? { ok: true, result: { mode, pending: false } } : applied;
    }
    const { requestId, answer } = this.deps.ask(escalation(current, mode));
    this.waiting = requestId;
    void answer.then((reply) => {
      if (this.waiting !== requestId) return;
      this.waiting = undefined;
      if (!allows(reply)) return;
      const applied = this.apply(mode);
      if (!applied.ok) this.deps.failed(applied.error.message);
    });
    return { ok: true, result: { mode: current, pending: true, request_id: requestId } };
  }

  private apply(mode: SandboxMode): { ok: true } | Failure {
    const set = this.deps.sandbox.setMode(mode);
    if (!set.ok) return set;
    this.deps.applied(mode);
    return { ok: true };
  }
}

function escalation(from: SandboxMode, to: SandboxMode): PermissionAsk {
  const what =
    to === "off"
      ? "commands will run as you, with the network and all your files"
      : "commands will be able to write the agent's working directory";
  return {
    tool_name: "set_sandbox",
    input: { mode: to },
    prompt: `Allow loosening the sandbox from ${from} to ${to}?`,
    options: ["allow", "deny"],
    details: [{ label: "Sandbox", value: `${from} → ${to}: ${what}`, format: "text" }],
    choices: [
      { id: CHOICE_ALLOW_ONCE, label: `Allow: loosen to ${to}`, intent: "allow" },
      { id: CHOICE_DENY, label: `Deny: stay ${from}`, intent: "deny" },
    ],
    sandbox: to,
  };
}

/** Only an explicit allow loosens the sandbox; a cancel (abort, timeout, headless) keeps it. */
function allows(answer: PermissionAnswer): boolean {
  if (answer.kind === "choice") return answer.choice_id === CHOICE_ALLOW_ONCE;
  if (answer.kind === "decision") return answer.decision !== "deny";
  return false;
}
