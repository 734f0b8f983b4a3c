/**
 * The request/response core every client shares (web, SDK, CLI, the subagent tool): one
 * connection at a time over any `ChannelTransport`; commands go out with a fresh `id`; each
 * answer is matched back by that id; a lost connection is re-opened with backoff and the
 * client re-attaches on `open`. Every pending request settles exactly once — on its response,
 * on its timeout, on its abort signal, or when the connection closes — with a `{code, message}`
 * error, never a hang. A timeout whose timer fires long past its deadline (a sleeping laptop,
 * a leapt clock) waits one more window, so an answer already there is read first. Nothing
 * from a superseded transport reaches the client.
 */

import { isRecord } from "../support/is-record.ts";
import type { ErrorCode } from "../types/errors.ts";
import type { Response } from "../types/response.ts";
import { type Failure, failure, type WireError } from "../wire/errors.ts";
import { type BackoffOptions, reconnectDelayMs } from "./backoff.ts";
import type { ChannelSink, ChannelTransport, Connect } from "./channel-transport.ts";
import { checkProtocolVersion } from "./protocol-version.ts";

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/**
 * A request timer firing more than this past its deadline was held up by the process not
 * running (a hidden tab's timers are aligned to at most a second; a busy loop to far less).
 */
const LATE_TIMER_MS = 5_000;

export type ChannelResult = { ok: true; response: Response } | Failure;

export type ChannelState =
  | { kind: "connecting" }
  /** `reconnected`: an earlier connection of this channel was lost; re-attach now. */
  | { kind: "open"; reconnected: boolean }
  /** Lost (or failed to open); the next attempt runs in `retryInMs`. */
  | { kind: "waiting"; retryInMs: number; reason: string }
  /** Closed for good: by `close()`, without reconnect, or refused for good by the connector. */
  | { kind: "closed"; error: WireError };

export interface ChannelEvents {
  /** Every inbound message that is not the answer to a request of this channel. */
  message(value: unknown): void;
  /** A line or frame the transport could not use. */
  invalid?(error: WireError): void;
  state?(state: ChannelState): void;
}

/** Anything with a `type`: the command schemas type it at each client. */
export interface Command {
  readonly type: string;
  readonly [field: string]: unknown;
}

export interface RequestChannelOptions {
  connect: Connect;
  /** Request ids are `<idPrefix><n>`: unique on this channel, and telling whose they are. */
  idPrefix: string;
  /** The validated `response` envelope in `value`, if it is one (each client has its validator). */
  readResponse(value: unknown): Response | undefined;
  /** Default for `request` (default 30 s; `Infinity` waits as long as the connection lives). */
  timeoutMs?: number;
  /** Re-open a lost connection with this backoff (default `false`: a drop closes for good). */
  reconnect?: BackoffOptions | false;
  /** The channel is open only once the server's `hello` arrives (the protocol's first message). */
  waitForHello?: boolean;
  /**
   * A request timed out and nothing at all arrived since it went out: the connection is most
   * likely dead without having noticed (a sleeping laptop, a dropped route), so drop it. After
   * a sleep that is one full window after waking, never on a timer that fired late.
   */
  dropWhenSilent?: boolean;
}

export interface RequestOptions {
  timeoutMs?: number;
  /**
   * Runs synchronously when the answer arrives, before any later message is handled (events
   * that follow an answer in the same read are ordered after it).
   */
  onAnswer?(response: Response): void;
  /** Aborting settles the request at once (the server may still act on it). */
  signal?: AbortSignal;
}

interface Pending {
  command: string;
  settle(result: ChannelResult): void;
  onAnswer: ((response: Response) => void) | undefined;
}

type Phase = "idle" | "connecting" | "handshake" | "open" | "waiting" | "closed";

export class RequestChannel {
  private phase: Phase = "idle";
  private transport: ChannelTransport | undefined;
  /** Bumped for every transport: messages and closes of an older one are ignored. */
  private generation = 0;
  private readonly pending = new Map<string, Pending>();
  private nextId = 1;
  private attempt = 0;
  private everOpened = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private lastReceivedAt = 0;
  private lastReason = "not open yet";
  private handshake: ((result: { ok: true } | Failure) => void) | undefined;

  constructor(
    private readonly options: RequestChannelOptions,
    private readonly on: ChannelEvents,
  ) {}

  get isOpen(): boolean {
    return this.phase === "open";
  }

  /** Requests sent and not settled yet (bounded by what the client has in flight). */
  get inFlight(): number {
    return this.pending.size;
  }

  /**
   * One attempt to connect. A failure leaves the channel closed unless `retry` is set, in
   * which case it waits out the backoff and tries again (as after a lost connection).
   */
  async open(retry = false): Promise<{ ok: true } | Failure> {
    if (this.phase === "open") return { ok: true };
    if (this.phase !== "idle" && this.phase !== "waiting") {
      return failure("CONFLICT", `the connection is already ${this.phase}`);
    }
    clearTimeout(this.retryTimer);
    const opened = await this.connectOnce();
    if (!opened.ok && !this.isClosed()) {
      if (retry && opened.retry && this.options.reconnect !== false) this.scheduleRetry(opened.error.message);
      else this.closeFor(opened.error);
    }
    return opened.ok ? { ok: true } : { ok: false, error: opened.error };
  }

  /** Skips the rest of the backoff wait; does nothing unless waiting to reconnect. */
  retryNow(): void {
    if (this.phase !== "waiting") return;
    clearTimeout(this.retryTimer);
    void this.retry();
  }

  /** Drops the connection as a network failure would; it reconnects if it may. */
  drop(reason: string): void {
    if (this.transport === undefined) return;
    this.transport.close(reason);
    this.lost(reason);
  }

  /** Closes for good; whatever is pending fails with NOT_ATTACHED. */
  close(reason = "the connection was closed"): void {
    if (this.phase === "closed") return;
    const transport = this.transport;
    this.closeFor({ code: "NOT_ATTACHED", message: reason });
    transport?.close(reason);
  }

  /** Fire-and-forget: sent if open, else dropped (there is no answer to wait for). */
  send(command: Command): void {
    if (this.phase === "open") this.transport?.send(command);
  }

  /** Sends `command` with a fresh id; resolves with its `response` (success or not) or why none came. */
  request(command: Command, options: RequestOptions = {}): Promise<ChannelResult> {
    const transport = this.transport;
    if (this.phase !== "open" || transport === undefined) {
      return Promise.resolve(failure("NOT_ATTACHED", `${command.type}: not connected (${this.lastReason})`));
    }
    if (options.signal?.aborted) return Promise.resolve(aborted(command.type));
    const id = `${this.options.idPrefix}${this.nextId++}`;
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const sentAt = performance.now();
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => this.settle(id, aborted(command.type));
      this.pending.set(id, {
        command: command.type,
        onAnswer: options.onAnswer,
        settle: (result) => {
          clearTimeout(timer);
          options.signal?.removeEventListener("abort", onAbort);
          resolve(result);
        },
      });
      if (Number.isFinite(timeoutMs)) {
        const arm = (lateAllowed: boolean) => {
          const due = performance.now() + timeoutMs;
          timer = setTimeout(() => {
            // The timer fired long after its deadline: the process was not running for part of
            // the wait (asleep, frozen) or its clock leapt, so the answer may be waiting to be
            // read. It gets one full window of running time instead of a verdict now.
            if (lateAllowed && performance.now() - due > LATE_TIMER_MS) arm(false);
            else this.timedOut(id, command.type, timeoutMs, sentAt);
          }, timeoutMs);
        };
        arm(true);
      }
      options.signal?.addEventListener("abort", onAbort, { once: true });
      transport.send({ ...command, id });
    });
  }

  private timedOut(id: string, type: string, timeoutMs: number, sentAt: number): void {
    const silent = this.options.dropWhenSilent === true && this.lastReceivedAt < sentAt;
    const within = `${type}: no answer within ${timeoutMs / 1000} s`;
    if (!silent) {
      this.settle(id, failure("TIMEOUT", `${within}; the server may be busy, try again`));
      return;
    }
    this.settle(id, failure("TIMEOUT", `${within}; reconnecting`));
    // Nothing sent on this connection will be answered: the others time out with it.
    for (const [other, waiting] of [...this.pending]) {
      this.settle(
        other,
        failure("TIMEOUT", `${waiting.command}: the server stopped answering; reconnecting`),
      );
    }
    this.drop("the server stopped answering");
  }

  private settle(id: string, result: ChannelResult): void {
    const waiting = this.pending.get(id);
    if (waiting === undefined) return;
    this.pending.delete(id);
    // Typed results plug in here: check `result.response.data` against the result schema of
    // `waiting.command` before the caller sees it.
    if (result.ok) waiting.onAnswer?.(result.response);
    waiting.settle(result);
  }

  private settleAll(code: ErrorCode, reason: string): void {
    for (const [id, waiting] of [...this.pending]) {
      this.settle(id, failure(code, `${waiting.command}: the connection closed: ${reason}`));
    }
  }

  private async connectOnce(): Promise<({ ok: true } | Failure) & { retry: boolean }> {
    const generation = ++this.generation;
    this.setPhase("connecting", { kind: "connecting" });
    const connected = await this.options.connect(this.sinkFor(generation));
    if (generation !== this.generation) {
      // close() ran meanwhile (the new transport has no one to serve), or it closed already.
      if (connected.ok) connected.transport.close("the connection was closed");
      const retry = !this.isClosed();
      return { ...failure("NOT_ATTACHED", `the connection closed: ${this.lastReason}`), retry };
    }
    if (!connected.ok) return connected;
    this.transport = connected.transport;
    if (this.options.waitForHello === true) {
      this.phase = "handshake";
      const ready = await new Promise<{ ok: true } | Failure>((resolve) => {
        this.handshake = resolve;
      });
      this.handshake = undefined;
      if (!ready.ok) {
        // Another major version: this server will not change by trying again.
        if (ready.error.code !== "PROTOCOL_ERROR") return { ...ready, retry: true };
        this.transport?.close(ready.error.message);
        this.transport = undefined;
        return { ...ready, retry: false };
      }
    }
    this.attempt = 0;
    this.lastReceivedAt = performance.now();
    const reconnected = this.everOpened;
    this.everOpened = true;
    this.setPhase("open", { kind: "open", reconnected });
    return { ok: true, retry: false };
  }

  private sinkFor(generation: number): ChannelSink {
    return {
      message: (value) => {
        if (generation === this.generation) this.receive(value);
      },
      invalid: (error) => {
        if (generation === this.generation) this.on.invalid?.(error);
      },
      closed: (reason) => {
        if (generation === this.generation) this.lost(reason);
      },
    };
  }

  private receive(value: unknown): void {
    this.lastReceivedAt = performance.now();
    if (this.phase === "handshake" && isRecord(value) && value.type === "hello") {
      this.handshake?.(checkProtocolVersion(value.protocol_version));
      return;
    }
    if (isRecord(value) && value.type === "response") {
      const response = this.options.readResponse(value);
      if (response?.id !== undefined) {
        // Either ours and pending, or late (timed out, aborted) or unknown: never the client's.
        this.settle(response.id, { ok: true, response });
        return;
      }
    }
    this.on.message(value);
  }

  /** The current transport is gone (closed by the peer, by the network or by `drop`). */
  private lost(reason: string): void {
    this.transport = undefined;
    this.generation++;
    this.lastReason = reason;
    if (this.handshake !== undefined) {
      this.handshake(failure("NOT_ATTACHED", `the connection closed before its hello: ${reason}`));
      return;
    }
    this.settleAll("NOT_ATTACHED", reason);
    // Only an open connection is handled here; a failing attempt reports to whoever runs it.
    if (this.phase !== "open") return;
    if (this.options.reconnect === false || this.options.reconnect === undefined) {
      this.closeFor({ code: "NOT_ATTACHED", message: `the connection closed: ${reason}` });
      return;
    }
    this.scheduleRetry(reason);
  }

  private scheduleRetry(reason: string): void {
    const max = this.options.reconnect ? this.options.reconnect.maxAttempts : undefined;
    if (max !== undefined && this.attempt >= max) {
      this.closeFor({
        code: "NOT_ATTACHED",
        message: `gave up reconnecting after ${max} attempt${max === 1 ? "" : "s"}: ${reason}`,
      });
      return;
    }
    const delay = reconnectDelayMs(this.attempt++, this.options.reconnect || {});
    this.lastReason = reason;
    this.setPhase("waiting", { kind: "waiting", retryInMs: delay, reason });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.retry(), delay);
  }

  private async retry(): Promise<void> {
    if (this.phase !== "waiting") return;
    const opened = await this.connectOnce();
    if (opened.ok || this.isClosed()) return;
    if (opened.retry) this.scheduleRetry(opened.error.message);
    else this.closeFor(opened.error);
  }

  private closeFor(error: WireError): void {
    clearTimeout(this.retryTimer);
    this.generation++;
    this.transport = undefined;
    this.lastReason = error.message;
    this.handshake?.({ ok: false, error });
    this.settleAll(error.code, error.message);
    this.setPhase("closed", { kind: "closed", error });
  }

  /** Read through a call: the phase changes across the awaits of an attempt. */
  private isClosed(): boolean {
    return this.phase === "closed";
  }

  private setPhase(phase: Phase, state: ChannelState): void {
    this.phase = phase;
    this.on.state?.(state);
  }
}

function aborted(type: string): Failure {
  return failure("INTERNAL_ERROR", `${type}: aborted`);
}
