/**
 * The daemon link over stdio (`--daemon-link stdio`, protocol-additions §27): the `subagent`
 * tool's way to the daemon when no socket reaches it (a `command` or `container` placement).
 * Each call opens one transport for the shared request channel (src/client), as a call over the
 * socket opens one connection: its command goes out as a `daemon_request` on stdout, the
 * daemon's `daemon_response` on stdin is its answer, and closing an unanswered one (abort,
 * timeout) sends `daemon_cancel`, as closing the socket does. Answers are checked here before the
 * channel sees them: one for no open request, for another command or over the size limit is
 * refused with a clear error.
 */

import type { Connect, Connected } from "../../client/channel-transport.ts";
import type { Command } from "../../client/request-channel.ts";
import type { UnsequencedAgentEvent } from "../../types/catalog.ts";
import { MAX_DAEMON_LINK_BYTES, MAX_DAEMON_LINK_PENDING } from "../../types/daemon-link.ts";
import type { Response } from "../../types/response.ts";
import { type Failure, failure } from "../../wire/errors.ts";

/** How long the daemon has to answer a command (a wait: its own timeout on top). */
export const DEFAULT_DAEMON_LINK_TIMEOUT_MS = 60_000;
/** A `subagent.wait` without a timeout waits at most this long over the link; the model may wait again. */
export const MAX_LINK_WAIT_S = 3600;

interface Open {
  command: string;
  answered(response: Response): void;
  refused(reason: string): void;
}

export class DaemonLink {
  /** Requests sent and not answered, by their id. */
  private readonly open = new Map<string, Open>();
  /** Transports opened and not closed (each carries one call). */
  private transports = 0;

  constructor(
    private readonly emit: (event: UnsequencedAgentEvent) => void,
    private readonly baseTimeoutMs = DEFAULT_DAEMON_LINK_TIMEOUT_MS,
  ) {}

  /** How long the daemon has to answer `command`. */
  timeoutMs(command: Command): number {
    if (command.type !== "subagent.wait") return this.baseTimeoutMs;
    const wait = typeof command.timeout === "number" ? command.timeout : MAX_LINK_WAIT_S;
    return wait * 1000 + this.baseTimeoutMs;
  }

  /** A `Connect` for one call's request channel. */
  readonly connect: Connect = (sink) => {
    if (this.transports >= MAX_DAEMON_LINK_PENDING)
      return Promise.resolve<Connected>({
        ...failure("CONFLICT", `${MAX_DAEMON_LINK_PENDING} requests are already open on the daemon link`),
        retry: false,
      });
    this.transports += 1;
    let sent: string | undefined;
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      this.transports -= 1;
      if (sent !== undefined && this.open.delete(sent)) this.emit({ type: "daemon_cancel", id: sent });
    };
    return Promise.resolve<Connected>({
      ok: true,
      transport: {
        send: (message) => {
          if (closed || sent !== undefined) return;
          const request = bounded(message);
          if (typeof request === "string") {
            closed = true;
            this.transports -= 1;
            sink.closed(request);
            return;
          }
          sent = request.id;
          this.open.set(request.id, {
            command: request.type,
            answered: (response) => sink.message(response),
            refused: (reason) => {
              close();
              sink.closed(reason);
            },
          });
          const { id, ...command } = request;
          this.emit({ type: "daemon_request", id, request: command });
        },
        close,
      },
    });
  };

  /** A `daemon_response`: undefined when taken, else why it is refused. */
  answer(id: string, response: Response): Failure | undefined {
    const open = this.open.get(id);
    if (open === undefined)
      return failure(
        "NOT_FOUND",
        `daemon_response: no daemon request ${id} is open (answered, cancelled or timed out, or never sent)`,
      );
    if (response.command !== open.command)
      return failure(
        "INVALID_REQUEST",
        `daemon_response ${id}: it answers ${response.command}, but the request was ${open.command}; refused`,
      );
    const bytes = Buffer.byteLength(JSON.stringify(response));
    if (bytes > MAX_DAEMON_LINK_BYTES) {
      const reason = `the daemon's answer to ${open.command} is ${bytes} bytes, over the link's ${MAX_DAEMON_LINK_BYTES}-byte limit`;
      // Answered, though unusable: the call fails now (no cancel: the daemon is done with it).
      this.open.delete(id);
      open.refused(reason);
      return failure("INVALID_REQUEST", `daemon_response ${id}: ${reason}; refused`);
    }
    this.open.delete(id);
    open.answered({ ...response, id });
    return undefined;
  }
}

type OutboundRequest = { id: string; type: string; [field: string]: unknown };

/** The command as it goes out (a wait bounded), or why it cannot. */
function bounded(message: object): OutboundRequest | string {
  const id: unknown = "id" in message ? message.id : undefined;
  const type: unknown = "type" in message ? message.type : undefined;
  if (typeof id !== "string" || typeof type !== "string") return "a daemon request needs an id and a type";
  const request: OutboundRequest = { ...message, id, type };
  if (type === "subagent.wait" && request.timeout === undefined) request.timeout = MAX_LINK_WAIT_S;
  const bytes = Buffer.byteLength(JSON.stringify(request));
  if (bytes > MAX_DAEMON_LINK_BYTES)
    return `${type} is ${bytes} bytes, over the daemon link's ${MAX_DAEMON_LINK_BYTES}-byte limit`;
  return request;
}
