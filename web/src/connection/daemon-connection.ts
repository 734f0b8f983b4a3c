/**
 * The page's one connection to the daemon, on the shared request channel (src/client):
 * request/response by `id` with a timeout; reconnect with backoff, or at once when the page
 * wakes; a request that times out on a silent socket drops it. The channel opens at the
 * daemon's `hello`; whoever listens re-attaches on `open`. A browser whose session was revoked
 * stops for good (not enrolled) instead of retrying.
 */
import { Value } from "@sinclair/typebox/value";
import { type CallOf, checkResult } from "../../../src/client/command-result.ts";
import { type ChannelState, RequestChannel } from "../../../src/client/request-channel.ts";
import { RESPONSE_SCHEMA } from "../../../src/types/catalog.ts";
import type { CommandType, OutboundCommand, ResultMap } from "../../../src/types/command-table.ts";
import type { Response } from "../../../src/types/response.ts";
import { interpretedCheck } from "../../../src/wire/schema-checker.ts";
import { classify, type Inbound } from "./inbound.ts";
import { onPageWake } from "./page-lifecycle.ts";
import { websocketConnect } from "./websocket-connect.ts";

export type ConnectionState =
  | { kind: "connecting" }
  | { kind: "open" }
  | { kind: "waiting"; retryAt: number; reason: string }
  | { kind: "not_enrolled"; message: string };

export type Outbound = OutboundCommand;

export class RequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** The error's typed `data`, when the daemon sent one (e.g. a workspace retire refusal). */
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export interface ConnectionEvents {
  state(state: ConnectionState): void;
  open(): void;
  /** The socket closed: nothing more arrives from it; state held from it is stale until re-synced. */
  closed(): void;
  message(message: Inbound): void;
}

/** Compiled validators generate code, which the page's CSP forbids: `Value.Check` instead. */
function readResponse(value: unknown): Response | undefined {
  return Value.Check(RESPONSE_SCHEMA, value) ? value : undefined;
}

export class DaemonConnection {
  private channel: RequestChannel | undefined;
  private removeWakeListeners: (() => void) | undefined;

  constructor(private readonly on: ConnectionEvents) {}

  start(): void {
    if (this.channel !== undefined) return;
    const channel = new RequestChannel(
      {
        connect: websocketConnect,
        idPrefix: "web-",
        readResponse,
        reconnect: {},
        waitForHello: true,
        dropWhenSilent: true,
      },
      {
        message: (value) => this.on.message(classify(value)),
        state: (state) => this.changed(state),
      },
    );
    this.channel = channel;
    this.removeWakeListeners ??= onPageWake(() => channel.retryNow());
    void channel.open(true);
  }

  stop(): void {
    this.removeWakeListeners?.();
    this.removeWakeListeners = undefined;
    const channel = this.channel;
    this.channel = undefined;
    channel?.close("page closed");
  }

  /** Reconnects now instead of waiting out the backoff; does nothing unless waiting to. */
  retryNow(): void {
    this.channel?.retryNow();
  }

  /**
   * A typed request: resolves with its result, checked against the result schema of its type in
   * the command table (interpreted: the CSP forbids compiled checks). A failure is thrown as a
   * RequestError carrying the daemon's `{code, message}`; an answer of the wrong shape as an
   * INTERNAL_ERROR naming the command and field, so the page says so instead of showing nothing.
   */
  async call<T extends CommandType>(message: CallOf<T>, timeoutMs?: number): Promise<ResultMap[T]> {
    const channel = this.channel;
    if (channel === undefined) throw new RequestError("NOT_ATTACHED", `${message.type}: not connected`);
    const result = await channel.request(message, timeoutMs === undefined ? {} : { timeoutMs });
    if (!result.ok) throw new RequestError(result.error.code, result.error.message);
    const { response } = result;
    if (!response.success) {
      throw new RequestError(
        response.error?.code ?? "INTERNAL_ERROR",
        response.error?.message ?? "failed",
        response.error?.data,
      );
    }
    const checked = checkResult(message.type, response.data, interpretedCheck);
    if (!checked.ok) throw new RequestError(checked.error.code, checked.error.message);
    return checked.result;
  }

  private changed(state: ChannelState): void {
    switch (state.kind) {
      case "connecting":
        this.on.state({ kind: "connecting" });
        return;
      case "open":
        this.on.state({ kind: "open" });
        this.on.open();
        return;
      case "waiting":
        this.on.closed();
        this.on.state({ kind: "waiting", retryAt: Date.now() + state.retryInMs, reason: state.reason });
        return;
      case "closed":
        this.on.closed();
        // Closed for good by the page (stop) or because this browser may no longer connect.
        if (state.error.code === "PERMISSION_DENIED") {
          this.removeWakeListeners?.();
          this.removeWakeListeners = undefined;
          this.on.state({ kind: "not_enrolled", message: state.error.message });
        }
        return;
    }
  }
}
