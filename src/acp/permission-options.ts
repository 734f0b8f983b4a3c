/**
 * Shard's permission choices as ACP permission options, and the editor's pick back as a
 * `permission_response`. Shard's server-defined choices (allow once, always allow this exact
 * command or its signature, deny) map one to one, by id; an older request with only the three
 * decisions maps to allow once / always allow / deny.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { PermissionChoice, PermissionDecision, PermissionRequest } from "../types/permissions.ts";

const DECISION_PREFIX = "decision:";

const INTENT_KINDS: Record<PermissionChoice["intent"], acp.PermissionOptionKind> = {
  allow: "allow_once",
  persist: "allow_always",
  deny: "reject_once",
};

const DECISIONS: Record<PermissionDecision, { kind: acp.PermissionOptionKind; name: string }> = {
  allow: { kind: "allow_once", name: "Allow once" },
  allow_always: { kind: "allow_always", name: "Always allow" },
  deny: { kind: "reject_once", name: "Deny" },
};

export function permissionOptions(request: PermissionRequest): acp.PermissionOption[] {
  if (request.choices !== undefined && request.choices.length > 0) {
    return request.choices.map((choice) => ({
      optionId: choice.id,
      name: choice.label,
      kind: INTENT_KINDS[choice.intent],
    }));
  }
  return request.options.map((decision) => ({
    optionId: `${DECISION_PREFIX}${decision}`,
    ...DECISIONS[decision],
  }));
}

/** The fields of the `permission_response` for the editor's outcome; a cancelled dialog denies. */
export function permissionAnswer(
  request: PermissionRequest,
  outcome: acp.RequestPermissionOutcome,
): { choice_id: string } | { decision: PermissionDecision } {
  if (outcome.outcome !== "selected") return { decision: "deny" };
  const picked = outcome.optionId;
  // Only what was offered counts (choices when the request has them, else decisions); an
  // option id we never offered gets the safe answer.
  if (request.choices !== undefined && request.choices.length > 0) {
    const choice = request.choices.find((c) => c.id === picked);
    return choice !== undefined ? { choice_id: choice.id } : { decision: "deny" };
  }
  const decision = request.options.find((d) => `${DECISION_PREFIX}${d}` === picked);
  return { decision: decision ?? "deny" };
}
