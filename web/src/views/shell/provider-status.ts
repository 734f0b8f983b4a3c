/** Asks the daemon (`provider.status`) whether new agents have a model provider, on every connect. */
import { createResource, type Resource } from "solid-js";
import type { ProviderStatusResult } from "../../../../src/types/provider-status.ts";
import { loaded } from "../../state/attempt.ts";
import type { ControlRoom } from "../../state/control-room.ts";

export function createProviderStatus(room: ControlRoom): {
  status: Resource<ProviderStatusResult | undefined>;
  recheck(): void;
} {
  // A failure is a notice; the first-run help is shown only on a status the daemon gave.
  const [status, { refetch }] = createResource(room.online, async () =>
    loaded(await room.attempt(() => room.connection.call({ type: "provider.status" }))),
  );
  return { status, recheck: () => void refetch() };
}
