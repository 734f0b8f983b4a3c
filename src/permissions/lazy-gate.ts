/**
 * The gate is first needed at the first tool call; loading it (grant store, bash analyser)
 * then keeps it off the agent's start-up path.
 */
import type { PermissionGate } from "../contracts/permission-gate.ts";
import type { PermissionGateOptions } from "./gate.ts";

export function lazyPermissionGate(options: PermissionGateOptions): PermissionGate {
  let gate: Promise<PermissionGate> | undefined;
  return {
    async decide(check, ask) {
      gate ??= import("./gate.ts").then((m) => m.createPermissionGate(options));
      return (await gate).decide(check, ask);
    },
  };
}
