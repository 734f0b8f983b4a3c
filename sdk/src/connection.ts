/**
 * The SDK's side of the shared request channel (src/client): answers and channel failures
 * become `ShardError`s, every other message is sorted (./inbound.ts) into agent events,
 * daemon events and invalid input.
 */
import { type CallOf, checkResult } from "../../src/client/command-result.ts";
import type { ChannelState, Command, RequestOptions } from "../../src/client/request-channel.ts";
import { RequestChannel, type RequestChannelOptions } from "../../src/client/request-channel.ts";
import type { AgentEvent, DaemonEvent } from "../../src/types/catalog.ts";
import type { CommandType, OutboundCommand, ResultMap } from "../../src/types/command-table.ts";
import type { Response } from "../../src/types/response.ts";
import type { WireError } from "../../src/wire/errors.ts";
import { sharedCheck } from "../../src/wire/schema-check.ts";
import { asResponse } from "../../src/wire/validate.ts";
import { ShardError } from "./errors.ts";
import { classify } from "./inbound.ts";

export type Outbound = OutboundCommand;

export interface ConnectionEvents {
  agentEvent(event: AgentEvent): void;
  daemonEvent?(event: DaemonEvent): void;
  /** A message that failed validation: dropped, never acted on. */
  invalid?(error: WireError): void;
  state?(state: ChannelState): void;
}

let connectionCounter = 0;

export class Connection {
  private readonly channel: RequestChannel;

  constructor(
    options: Omit<RequestChannelOptions, "idPrefix" | "readResponse">,
    private readonly on: ConnectionEvents,
  ) {
    this.channel = new RequestChannel(
      { ...options, idPrefix: `sdk${++connectionCounter}-`, readResponse: asResponse },
      {
        message: (value) => this.receive(value),
        invalid: (error) => on.invalid?.(error),
        state: (state) => on.state?.(state),
      },
    );
  }

  get isOpen(): boolean {
    return this.channel.isOpen;
  }

  /** Connects once (no retry); throws the `ShardError` saying why it could not. */
  async open(): Promise<void> {
    const opened = await this.channel.open();
    if (!opened.ok) throw ShardError.from(opened.error);
  }

  /** Fire-and-forget (the caller does not wait for the acceptance). */
  send(command: Outbound): void {
    this.channel.send(command);
  }

  /** Sends `command` with a fresh id; resolves with its `response` (success or not). */
  async request(command: Command, options: RequestOptions = {}): Promise<Response> {
    const result = await this.channel.request(command, options);
    if (!result.ok) throw ShardError.from(result.error);
    return result.response;
  }

  /**
   * A typed request: resolves with its result, checked against the result schema of its type
   * (src/types/command-table.ts); a failure, or an answer of the wrong shape, is a `ShardError`.
   */
  async call<T extends CommandType>(command: CallOf<T>, options: RequestOptions = {}): Promise<ResultMap[T]> {
    const sent = await this.channel.request(command, options);
    if (!sent.ok) throw ShardError.from(sent.error);
    if (!sent.response.success) throw failed(sent.response);
    const checked = checkResult(command.type, sent.response.data, sharedCheck);
    if (!checked.ok) throw ShardError.from(checked.error);
    return checked.result;
  }

  close(reason?: string): void {
    this.channel.close(reason);
  }

  private receive(raw: unknown): void {
    const inbound = classify(raw);
    switch (inbound.kind) {
      case "response":
        // An uncorrelated failure (a line the server could not parse) says what went wrong.
        if (!inbound.response.success && inbound.response.error) this.on.invalid?.(inbound.response.error);
        return;
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
}

/** The `ShardError` of a failed response. */
export function failed(response: Response): ShardError {
  const error = response.error ?? { code: "INTERNAL_ERROR", message: `${response.command} failed` };
  return ShardError.from(error);
}
