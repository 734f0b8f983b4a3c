/**
 * One connection to a server (an agent's stdio or a daemon socket): commands go out with an
 * `id`, each answer is matched back by that `id` within a timeout, failures become
 * `ShardError`s; everything else is handed on as an event.
 */
import type { AgentEvent, DaemonEvent } from "../../src/types/catalog.ts";
import type { OutboundCommand } from "../../src/types/command-table.ts";
import type { Response } from "../../src/types/response.ts";
import type { WireError } from "../../src/wire/errors.ts";
import { ShardError } from "./errors.ts";
import { classify } from "./inbound.ts";
import type { Transport, TransportSink } from "./transports/transport.ts";

export type Outbound = OutboundCommand;

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface ConnectionEvents {
  agentEvent(event: AgentEvent): void;
  daemonEvent?(event: DaemonEvent): void;
  /** A message that failed validation: dropped, never acted on. */
  invalid?(error: WireError): void;
  closed(reason: string): void;
}

export interface RequestOptions {
  timeoutMs?: number;
  /**
   * Runs synchronously when the answer arrives, before any later message is handled (events
   * that follow an answer in the same read are ordered after it).
   */
  onAnswer?(response: Response): void;
}

interface Pending {
  command: string;
  resolve(response: Response): void;
  reject(error: ShardError): void;
  onAnswer?: (response: Response) => void;
  timer: ReturnType<typeof setTimeout>;
}

let connectionCounter = 0;

export class Connection {
  private transport: Transport | undefined;
  private readonly pending = new Map<string, Pending>();
  private nextId = 1;
  private readonly prefix = `sdk${++connectionCounter}-`;
  private closeReason: string | undefined;

  constructor(
    private readonly on: ConnectionEvents,
    private readonly requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
  ) {}

  /** The sink a transport reports to; attach the transport it built with `use`. */
  readonly sink: TransportSink = {
    message: (value) => this.receive(value),
    invalid: (error) => this.on.invalid?.(error),
    closed: (reason) => this.closed(reason),
  };

  use(transport: Transport): void {
    this.transport = transport;
    this.closeReason = undefined;
  }

  get isOpen(): boolean {
    return this.transport !== undefined && this.closeReason === undefined;
  }

  /** Fire-and-forget (the caller does not wait for the acceptance). */
  send(command: Outbound): void {
    this.transport?.send(command);
  }

  /** Sends `command` with a fresh id; resolves with its `response` (success or not). */
  request(command: Outbound, options: RequestOptions = {}): Promise<Response> {
    const transport = this.transport;
    if (!transport || this.closeReason !== undefined) {
      return Promise.reject(
        new ShardError(
          "NOT_ATTACHED",
          `${command.type}: not connected (${this.closeReason ?? "not open yet"})`,
        ),
      );
    }
    const id = `${this.prefix}${this.nextId++}`;
    const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new ShardError(
            "TIMEOUT",
            `${command.type}: no answer within ${timeoutMs} ms; the server may be overloaded (raise requestTimeoutMs)`,
          ),
        );
      }, timeoutMs);
      const waiting: Pending = { command: command.type, resolve, reject, timer };
      if (options.onAnswer) waiting.onAnswer = options.onAnswer;
      this.pending.set(id, waiting);
      transport.send({ ...command, id });
    });
  }

  /** A request whose failure is thrown as a `ShardError`; resolves with `data`. */
  async call(command: Outbound, options: RequestOptions = {}): Promise<unknown> {
    const response = await this.request(command, options);
    if (!response.success) throw failed(response);
    return response.data;
  }

  close(): void {
    this.transport?.close();
  }

  private receive(raw: unknown): void {
    const inbound = classify(raw);
    switch (inbound.kind) {
      case "response": {
        const id = inbound.response.id;
        const waiting = id === undefined ? undefined : this.pending.get(id);
        if (waiting && id !== undefined) {
          this.pending.delete(id);
          clearTimeout(waiting.timer);
          waiting.onAnswer?.(inbound.response);
          waiting.resolve(inbound.response);
        } else if (!inbound.response.success && inbound.response.error) {
          // An uncorrelated failure (a line the server could not parse) says what went wrong.
          this.on.invalid?.(inbound.response.error);
        }
        return;
      }
      case "agent":
        this.on.agentEvent(inbound.event);
        return;
      case "daemon":
        this.on.daemonEvent?.(inbound.event);
        return;
      case "invalid":
        this.on.invalid?.(inbound.error);
        return;
    }
  }

  private closed(reason: string): void {
    this.closeReason = reason;
    this.transport = undefined;
    for (const [id, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      this.pending.delete(id);
      waiting.reject(new ShardError("NOT_ATTACHED", `${waiting.command}: the connection closed: ${reason}`));
    }
    this.on.closed(reason);
  }
}

/** The `ShardError` of a failed response. */
export function failed(response: Response): ShardError {
  const error = response.error ?? { code: "INTERNAL_ERROR", message: `${response.command} failed` };
  return ShardError.from(error);
}
