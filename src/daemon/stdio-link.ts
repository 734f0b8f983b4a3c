/**
 * The daemon side of a runtime's stdio link (protocol-additions §27, docs/placements.md): each
 * `daemon_request` of a runtime on a `command` or `container` placement is taken as the one
 * command of a connection scoped to that agent, exactly as on an ssh placement's forwarded
 * socket (src/daemon/agent-scope.ts: its own `subagent.*` only), and its `response` goes back
 * as `daemon_response` on the runtime's stdin. A `daemon_cancel` closes that connection, which
 * for `subagent.wait` cancels only the waiting, as closing the socket does.
 */

import {
  type DaemonRequestEvent,
  type DaemonResponseCommand,
  MAX_DAEMON_LINK_BYTES,
  MAX_DAEMON_LINK_PENDING,
} from "../types/daemon-link.ts";
import type { Response } from "../types/response.ts";
import type { WireError } from "../wire/errors.ts";
import { errorResponse } from "../wire/response.ts";
import type { Broker } from "./broker/broker.ts";
import type { ClientConnection } from "./broker/client-connection.ts";
import type { LinkTraffic, OpenStdioLink, StdioLinkEnd } from "./registry/stdio-link-end.ts";

export function stdioLinks(broker: Broker, log: (line: string) => void): OpenStdioLink {
  return (agentId, toRuntime) => new LinkEnd(broker, agentId, toRuntime, log);
}

class LinkEnd implements StdioLinkEnd {
  /** Requests being answered, by the runtime's id, each with its own scoped connection. */
  private readonly open = new Map<string, ClientConnection>();
  private connections = 0;
  private closed = false;

  constructor(
    private readonly broker: Broker,
    private readonly agentId: string,
    private readonly toRuntime: (command: DaemonResponseCommand) => boolean,
    private readonly log: (line: string) => void,
  ) {}

  take(message: LinkTraffic, line: string): void {
    if (this.closed) return;
    if (message.type === "daemon_cancel") this.drop(message.id);
    else if (message.type === "daemon_request") this.request(message, line);
    // The runtime's receipt: a refusal means an answer of ours never reached its tool.
    else if (!message.success)
      this.log(`agent ${this.agentId}: the runtime refused a daemon_response: ${message.error?.message}`);
  }

  private request({ id, request }: DaemonRequestEvent, line: string): void {
    // An answer would settle the first request of that id in the runtime: the second gets none.
    if (this.open.has(id)) {
      this.log(
        `agent ${this.agentId}: daemon_request ${id} is already open on its link; the repeat is dropped`,
      );
      return;
    }
    const refusal = this.refusal(id, line);
    if (refusal !== undefined) {
      this.reply(id, errorResponse({ type: request.type, id }, refusal));
      return;
    }
    this.connections += 1;
    const client: ClientConnection = {
      id: `link-${this.agentId}-${this.connections}`,
      localTrust: false,
      // Only this agent's own subagent.* pass (agent-scope.ts), checked by the broker.
      agentScope: this.agentId,
      send: (answer) => {
        if (answer.type === "response" && answer.id === id) this.answered(id, answer);
      },
      // Broadcasts (registry and job events) are not the link's: the runtime hears its
      // children's reports as prompts, as over the socket.
      sendEncoded: () => {},
    };
    this.open.set(id, client);
    this.broker.open(client);
    // The link's id replaces whatever the runtime put there: the answer is matched by it.
    void this.broker.receive(client, { ...request, id });
  }

  /** Why a request is not taken at all; undefined when it goes to the broker. */
  private refusal(id: string, line: string): WireError | undefined {
    if (this.open.has(id))
      return { code: "CONFLICT", message: `daemon_request ${id} is already open on this link` };
    const bytes = Buffer.byteLength(line);
    if (bytes > MAX_DAEMON_LINK_BYTES)
      return {
        code: "INVALID_REQUEST",
        message: `daemon_request ${id}: ${bytes} bytes, over the link's ${MAX_DAEMON_LINK_BYTES}-byte limit`,
      };
    if (this.open.size >= MAX_DAEMON_LINK_PENDING)
      return {
        code: "CONFLICT",
        message: `${MAX_DAEMON_LINK_PENDING} requests are already open on agent ${this.agentId}'s daemon link`,
      };
    return undefined;
  }

  close(): void {
    this.closed = true;
    for (const id of [...this.open.keys()]) this.drop(id);
  }

  private answered(id: string, response: Response): void {
    const client = this.open.get(id);
    if (client === undefined) return;
    this.open.delete(id);
    // Closed once the broker is done with the command (its `after` runs right after the answer),
    // as a socket client closes after reading its answer.
    queueMicrotask(() => this.broker.close(client));
    const bytes = Buffer.byteLength(JSON.stringify(response));
    if (bytes <= MAX_DAEMON_LINK_BYTES) this.reply(id, response);
    else
      this.reply(
        id,
        errorResponse(
          { type: response.command, id },
          {
            code: "INTERNAL_ERROR",
            message: `the answer to ${response.command} is ${bytes} bytes, over the daemon link's ${MAX_DAEMON_LINK_BYTES}-byte limit`,
          },
        ),
      );
  }

  /** Closes the request's connection: a wait on it is cancelled, its answer never sent. */
  private drop(id: string): void {
    const client = this.open.get(id);
    if (client === undefined) return;
    this.open.delete(id);
    this.broker.close(client);
  }

  private reply(id: string, response: Response): void {
    if (this.closed) return;
    this.toRuntime({ type: "daemon_response", id, response });
  }
}
