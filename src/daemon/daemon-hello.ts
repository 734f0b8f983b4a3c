/**
 * The daemon's own `hello` (docs/protocol.md §7): transport-scoped capabilities only. What one
 * runtime can do arrives in that agent's `sync.capabilities`, projected from the runtime's hello.
 */
import pkg from "../../package.json" with { type: "json" };
import type { HelloEvent } from "../types/agent-events.ts";
import { PROTOCOL_VERSION } from "../types/envelope.ts";

export type Transport = "unix-socket" | "websocket";

export function daemonHello(transport: Transport): HelloEvent {
  return {
    type: "hello",
    protocol_version: PROTOCOL_VERSION,
    server_version: pkg.version,
    capabilities: [transport, "streaming-deltas", "multi-agent", "agent-registry"],
  };
}
