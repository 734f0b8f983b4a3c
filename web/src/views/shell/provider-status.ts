/** Asks the daemon (`provider.status`) whether new agents have a model provider, on every connect. */
import { Value } from "@sinclair/typebox/value";
import { createResource, type Resource } from "solid-js";
import {
  type ProviderStatusResult,
  ProviderStatusResultSchema,
} from "../../../../src/types/provider-status.ts";
import type { ControlRoom } from "../../state/control-room.ts";

export function createProviderStatus(room: ControlRoom): {
  status: Resource<ProviderStatusResult | undefined>;
  recheck(): void;
} {
  const [status, { refetch }] = createResource(
    () => room.state().kind === "open",
    async (open) => {
      if (!open) return undefined;
      let data: unknown;
      const ok = await room.run(async () => {
        data = await room.connection.call({ type: "provider.status" });
      });
      return ok && Value.Check(ProviderStatusResultSchema, data) ? data : undefined;
    },
  );
  return { status, recheck: () => void refetch() };
}
