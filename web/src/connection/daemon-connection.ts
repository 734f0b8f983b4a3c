/**
 * The page's one WebSocket to the daemon (PROTOCOL §2.2, §4.1): a fresh ticket from
 * `/bootstrap` for every connect (so a restarted daemon is reached with a ticket it issued),
 * offered as `shard.v1, shard.ticket.<t>`; reconnect with backoff, or at once when the page
 * wakes; request/response by `id` with a timeout. A browser whose session was revoked gets no
 * ticket: the connection stops for good (not enrolled) instead of retrying. Whoever listens
 * re-attaches on `open`.
 */
import type { OutboundCommand } from "../../../src/types/command-table.ts";
import type { Response } from "../../../src/types/response.ts";
import { fetchTicket } from "../auth/ticket.ts";
import { reconnectDelayMs } from "./backoff.ts";
import { closeReason } from "./close-reason.ts";
import { classify, type Inbound } from "./inbound.ts";
import { onPageWake } from "./page-lifecycle.ts";

export type ConnectionState =
  | { kind: "connecting" }
  | { kind: "open" }
  | { kind: "waiting"; retryAt: number; reason: string }
  | { kind: "not_enrolled"; message: string };

export const REQUEST_TIMEOUT_MS = 30_000;
/** A socket that has not opened by then (a daemon that accepts but hangs) is given up. */
const OPEN_TIMEOUT_MS = 10_000;

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

interface Pending {
  resolve(response: Response): void;
  reject(error: RequestError): void;
  timer: ReturnType<typeof setTimeout>;
}

export interface ConnectionEvents {
  state(state: ConnectionState): void;
  open(): void;
  /** The socket closed: nothing more arrives from it; state held from it is stale until re-synced. */
  closed(): void;
  message(message: Inbound): void;
}

type Phase = "idle" | "connecting" | "open" | "waiting" | "not_enrolled" | "stopped";

export class DaemonConnection {
  private ws: WebSocket | undefined;
  private phase: Phase = "idle";
  private attempt = 0;
  private nextId = 1;
  private readonly pending = new Map<string, Pending>();
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private lastReceivedAt = 0;
  private removeWakeListeners: (() => void) | undefined;

  constructor(private readonly on: ConnectionEvents) {}

  start(): void {
    if (this.phase !== "idle" && this.phase !== "stopped") return;
    this.phase = "idle";
    this.removeWakeListeners ??= onPageWake(() => this.retryNow());
    void this.connect();
  }

  stop(): void {
    this.phase = "stopped";
    clearTimeout(this.retryTimer);
    this.removeWakeListeners?.();
    this.removeWakeListeners = undefined;
    this.ws?.close(1000, "page closed");
  }

  /** Drops the socket as a network failure would (debugging; the page reconnects by itself). */
  drop(): void {
    this.ws?.close(4000, "dropped by the page");
  }

  /** Reconnects now instead of waiting out the backoff; does nothing unless waiting to. */
  retryNow(): void {
    if (this.phase !== "waiting") return;
    clearTimeout(this.retryTimer);
    void this.connect();
  }

  send(message: Outbound): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  request(message: Outbound, timeoutMs = REQUEST_TIMEOUT_MS): Promise<Response> {
    const id = `web-${this.nextId++}`;
    return new Promise((resolve, reject) => {
      const ws = this.ws;
      if (ws === undefined || ws.readyState !== WebSocket.OPEN || this.phase !== "open") {
        reject(new RequestError("NOT_ATTACHED", "not connected to the daemon; wait for it to reconnect"));
        return;
      }
      const sentAt = performance.now();
      const timer = setTimeout(() => {
        this.pending.delete(id);
        const silent = this.lastReceivedAt < sentAt;
        reject(
          new RequestError(
            "TIMEOUT",
            `${message.type}: no answer from the daemon in ${timeoutMs / 1000} s${silent ? "; reconnecting" : "; try again"}`,
          ),
        );
        // Nothing at all arrived since the request went out: the socket is most likely dead
        // without having noticed (a sleeping laptop, a dropped route). Start over.
        if (silent && this.ws === ws) ws.close(4001, "the daemon stopped answering");
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      ws.send(JSON.stringify({ ...message, id }));
    });
  }

  /** A request whose failure is thrown as a RequestError carrying the daemon's `{code, message}`. */
  async call(message: Outbound, timeoutMs?: number): Promise<unknown> {
    const response = await this.request(message, timeoutMs);
    if (!response.success) {
      throw new RequestError(
        response.error?.code ?? "INTERNAL_ERROR",
        response.error?.message ?? "failed",
        response.error?.data,
      );
    }
    return response.data;
  }

  private setPhase(phase: Phase, state: ConnectionState): void {
    this.phase = phase;
    this.on.state(state);
  }

  private async connect(): Promise<void> {
    if (this.phase === "stopped" || this.phase === "not_enrolled" || this.phase === "connecting") return;
    if (this.ws !== undefined) return;
    this.setPhase("connecting", { kind: "connecting" });
    const ticket = await fetchTicket();
    // stop() may have run while the ticket was on its way.
    if (this.isStopped()) return;
    if (!ticket.ok) {
      if (ticket.notEnrolled) {
        this.removeWakeListeners?.();
        this.removeWakeListeners = undefined;
        this.setPhase("not_enrolled", { kind: "not_enrolled", message: ticket.message });
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
    const openTimer = setTimeout(
      () => ws.close(4002, "the daemon did not accept the connection in time"),
      OPEN_TIMEOUT_MS,
    );
    ws.onopen = () => {
      clearTimeout(openTimer);
      if (this.ws !== ws) return;
      this.attempt = 0;
      this.lastReceivedAt = performance.now();
      this.setPhase("open", { kind: "open" });
      this.on.open();
    };
    ws.onmessage = (event) => {
      // After a close nothing from the old socket may reach the state that the new one syncs.
      if (this.ws !== ws || typeof event.data !== "string") return;
      this.lastReceivedAt = performance.now();
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
      clearTimeout(openTimer);
      if (this.ws !== ws) return;
      this.ws = undefined;
      for (const [id, waiting] of this.pending) {
        clearTimeout(waiting.timer);
        waiting.reject(
          new RequestError("NOT_ATTACHED", "the connection to the daemon closed; it reconnects by itself"),
        );
        this.pending.delete(id);
      }
      this.on.closed();
      if (this.phase === "stopped") return;
      this.scheduleRetry(closeReason(event.code, event.reason));
    };
  }

  private isStopped(): boolean {
    return this.phase === "stopped";
  }

  private scheduleRetry(reason: string): void {
    if (this.phase === "stopped") return;
    const delay = reconnectDelayMs(this.attempt++);
    this.setPhase("waiting", { kind: "waiting", retryAt: Date.now() + delay, reason });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
  }
}
