/**
 * The gate is first needed at the first tool call; loading it (grant store, bash analyser)
 * later keeps it off the agent's start-up path. A turn starting asks for it (`prepare`), so it
 * loads, and warms up (./gate.ts), while the first provider call is in flight instead of inside
 * the first tool call.
 */
import type { PermissionGate } from "../contracts/permission-gate.ts";
import type { PermissionGateOptions } from "./gate.ts";

export function lazyPermissionGate(options: PermissionGateOptions): PermissionGate {
  let gate: Promise<PermissionGate> | undefined;
  const load = () => {
    gate ??= import("./gate.ts").then((m) => m.createPermissionGate(options));
    return gate;
  };
  return {
    async decide(check, ask) {
      return (await load()).decide(check, ask);
    },
    prepare() {
      // A failed load is reported by the decision that awaits it.
      load().then(
        (loaded) => loaded.prepare?.(),
        () => {},
      );
    },
  };
}
