/**
 * Client reads on a daemon connection (protocol-additions §26): every daemon runtime runs with
 * `--client-reads`, and the broker decides who answers. The agent's reader is the one
 * unix-socket client that attached with `serves_reads` (the latest to declare it): only its
 * `client_read_response` for a read it was asked reaches the runtime. With no reader, or when
 * the reader leaves, the broker answers `{error}` at once, so the runtime reads the disk
 * without waiting out its timeout.
 */
import type { ClientReadRequestEvent, ClientReadResponseCommand } from "../../types/client-reads.ts";
import type { WireError } from "../../wire/errors.ts";
import type { RuntimeForwarder } from "./runtime-forwarder.ts";

/** Reads asked of the agent's reader and not answered yet: request id → the reader's client id. */
export class ClientReadRoutes {
  /** The client that serves the agent's reads, if one is attached. */
  reader: string | undefined;
  private readonly open = new Map<string, string>();

  /** A new read from the runtime: the reader has it to answer, or the disk is read at once. */
  asked(forwarder: RuntimeForwarder, agentId: string, event: ClientReadRequestEvent): void {
    if (this.reader === undefined) {
      decline(forwarder, agentId, event.request_id, "no client serves reads for this agent");
      return;
    }
    this.open.set(event.request_id, this.reader);
  }

  /** Whether `clientId` may answer the read; the answer claims it (a second one is refused). */
  claim(clientId: string, command: ClientReadResponseCommand): WireError | undefined {
    if (this.open.get(command.request_id) !== clientId) {
      return {
        code: "PERMISSION_DENIED",
        message: `client_read_response: read ${command.request_id} was not asked of this connection; only the client that attached with serves_reads answers it`,
      };
    }
    this.open.delete(command.request_id);
    return undefined;
  }

  /** `clientId` stops serving (detach, close, re-attach without it): its open reads read the disk now. */
  left(forwarder: RuntimeForwarder, agentId: string, clientId: string): void {
    if (this.reader === clientId) this.reader = undefined;
    for (const [requestId, reader] of this.open) {
      if (reader !== clientId) continue;
      this.open.delete(requestId);
      decline(forwarder, agentId, requestId, "the client that serves reads left");
    }
  }

  /** The generation ended: its reads ended with it. */
  runtimeEnded(): void {
    this.open.clear();
  }
}

function decline(forwarder: RuntimeForwarder, agentId: string, requestId: string, error: string): void {
  forwarder.forward(agentId, { type: "client_read_response", request_id: requestId, error });
}
