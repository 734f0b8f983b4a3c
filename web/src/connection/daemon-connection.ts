/**
 * The page's one WebSocket to the daemon (PROTOCOL §2.2, §4.1): a fresh ticket from
 * `/bootstrap` for every connect, offered as `shard.v1, shard.ticket.<t>`; reconnect with
 * backoff; request/response by `id` with a timeout. Whoever listens re-attaches on `open`.
 */
import type { AgentCommand, DaemonCommand } from "../../../src/types/catalog.ts";
import type { Response } from "../../../src/types/response.ts";
import { fetchTicket } from "../auth/ticket.ts";
import { reconnectDelayMs } from "./backoff.ts";
import { classify, type Inbound } from "./inbound.ts";

export type ConnectionState =
  | { kind: "connecting" }
  | { kind: "open" }
  | { kind: "waiting"; retryAt: number; reason: string }
  | { kind: "not_enrolled"; message: string };

export const REQUEST_TIMEOUT_MS = 30_000;

type WithoutId<C> = C extends unknown ? Omit<C, "id"> : never;
/** Any protocol command, without its `id` (the connection numbers requests itself). */
export type Outbound = WithoutId<AgentCommand | DaemonCommand>;

export class RequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface Pending {
  resolve(response: Response): void;
  reject(error: RequestError): void;
  timer: ReturnType<typeof setTimeout>;
}

export interface ConnectionEvents {
  state(state: ConnectionState): void;
  open(): void;
  message(message: Inbound): void;
}

export class DaemonConnection {
  private ws: WebSocket | undefined;
  private attempt = 0;
  private nextId = 1;
  private readonly pending = new Map<string, Pending>();
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(private readonly on: ConnectionEvents) {}

  start(): void {
    this.stopped = false;
    void this.connect();
  }

  /** Test and debugging hook: drop the socket as a network failure would. */
  drop(): void {
    this.ws?.close(4000, "dropped by the page");
  }

  /** Reconnect now instead of waiting out the backoff. */
  retryNow(): void {
    if (this.ws !== undefined) return;
    clearTimeout(this.retryTimer);
    void this.connect();
  }

  send(message: Outbound): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  request(message: Outbound): Promise<Response> {
    const id = `web-${this.nextId++}`;
    return new Promise((resolve, reject) => {
      if (this.ws?.readyState !== WebSocket.OPEN) {
        reject(new RequestError("NOT_ATTACHED", "not connected to the daemon"));
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RequestError("TIMEOUT", `${message.type}: no answer in ${REQUEST_TIMEOUT_MS / 1000} s`));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      this.ws.send(JSON.stringify({ ...message, id }));
    });
  }

  /** A request whose failure is thrown as a RequestError carrying the daemon's `{code, message}`. */
  async call(message: Outbound): Promise<unknown> {
    const response = await this.request(message);
    if (!response.success) {
      throw new RequestError(response.error?.code ?? "INTERNAL_ERROR", response.error?.message ?? "failed");
    }
    return response.data;
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    this.on.state({ kind: "connecting" });
    const ticket = await fetchTicket();
    if (!ticket.ok) {
      if (ticket.notEnrolled) {
        this.on.state({ kind: "not_enrolled", message: ticket.message });
        return;
      }
      this.scheduleRetry(ticket.message);
      return;
    }
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${window.location.host}/ws`, [
      "shard.v1",
      `shard.ticket.${ticket.ticket}`,
    ]);
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.on.state({ kind: "open" });
      this.on.open();
    };
    ws.onmessage = (event) => {
      if (typeof event.data !== "string") return;
      const message = classify(event.data);
      if (message.kind === "response" && message.response.id !== undefined) {
        const waiting = this.pending.get(message.response.id);
        if (waiting !== undefined) {
          this.pending.delete(message.response.id);
          clearTimeout(waiting.timer);
          waiting.resolve(message.response);
          return;
        }
      }
      this.on.message(message);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      for (const [id, waiting] of this.pending) {
        clearTimeout(waiting.timer);
        waiting.reject(new RequestError("NOT_ATTACHED", "the connection to the daemon closed"));
        this.pending.delete(id);
      }
      this.scheduleRetry(event.reason || `connection closed (${event.code})`);
    };
  }

  private scheduleRetry(reason: string): void {
    if (this.stopped) return;
    const delay = reconnectDelayMs(this.attempt++);
    this.on.state({ kind: "waiting", retryAt: Date.now() + delay, reason });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
  }
}
