/**
 * A child's sandbox (issue 22 §6): its parent's or a stricter one, never looser. A looser mode
 * asked for is clamped to the parent's (and the caller says so); the policy is the stricter of
 * the two (`ask` over `auto-allow-sandboxed`); the hosts are at most the parent's.
 */
import {
  SANDBOX_STRICTNESS,
  type SandboxMode,
  type SandboxPolicy,
  type SandboxState,
} from "../../types/sandbox.ts";

export interface ChildSandboxAsk {
  mode?: SandboxMode;
  policy?: SandboxPolicy;
  network_allow?: readonly string[];
}

export interface ChildSandbox {
  /** Absent: the child gets the defaults, as its parent did (this machine has no sandbox). */
  mode?: SandboxMode;
  /** The looser mode that was asked for and clamped. */
  requested?: SandboxMode;
  policy: SandboxPolicy;
  network_allow: string[];
}

export function childSandbox(parent: SandboxState, asked: ChildSandboxAsk): ChildSandbox {
  // Where the parent fell back to `off` for want of bubblewrap, what it asked for is the floor.
  const floor = parent.requested ?? parent.mode;
  const policy = asked.policy === "ask" || parent.policy === "ask" ? "ask" : "auto-allow-sandboxed";
  const network_allow =
    asked.network_allow === undefined
      ? [...parent.network_allow]
      : asked.network_allow.filter((host) => parent.network_allow.includes(host));
  const common = { policy, network_allow } as const;
  if (asked.mode === undefined) return parent.unavailable !== undefined ? common : { mode: floor, ...common };
  if (SANDBOX_STRICTNESS[asked.mode] >= SANDBOX_STRICTNESS[floor]) return { mode: asked.mode, ...common };
  return { mode: floor, requested: asked.mode, ...common };
}
