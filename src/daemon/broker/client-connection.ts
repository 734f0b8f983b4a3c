/**
 * One client connection of the daemon, whatever its transport. The transport owns framing and
 * the bounded outbound buffer: a client over the cap is closed, never waited for
 * (docs/architecture.md §5.6).
 */
import type { AgentServerMessage } from "../../contracts/connection.ts";
import type { DaemonEvent } from "../../types/catalog.ts";
import type { EncodedMessage } from "./encoded-message.ts";

/** Registry, workspace and subagent events, broadcast to every client. */
export type OrchestratorEvent = DaemonEvent;

/** Everything the daemon sends: tagged agent events, responses, its own hello and registry events. */
export type DaemonMessage = AgentServerMessage | OrchestratorEvent;

export interface ClientConnection {
  /** Names the connection (logs); also `permission_resolved.source` when there is no `source`. */
  readonly id: string;
  /**
   * Names the client to people in `permission_resolved.source` when it answers: an enrolled
   * browser is `browser:<its label>`, so another browser can say which one answered.
   */
  readonly source?: string;
  /**
   * Local trust (the unix socket, docs/protocol.md §3.3): only such clients may manage browser
   * auth.
   */
  readonly localTrust: boolean;
  /**
   * A runtime's subagent link from another placement (src/daemon/agent-scope.ts): only this
   * agent's `subagent.*` commands pass.
   */
  readonly agentScope?: string;
  send(message: DaemonMessage): void;
  /** The same message already serialized (fan-out encodes once for every client). */
  sendEncoded(message: EncodedMessage): void;
}
