/**
 * Control over a page's WebSocket to the daemon from the test, through Playwright's WebSocket
 * routing (the page keeps its real socket to the daemon; the route sits between the page and
 * it, so the page needs no test hook of its own): close it as a lost network or as the daemon
 * would, stop passing messages either way (a half-open connection), or hold the daemon's back
 * until the test lets them through (an answer in flight). `/bootstrap` can be
 * refused so that the page stays disconnected exactly as long as the test needs.
 */
import type { Page, Route, WebSocketRoute } from "playwright-core";

export interface SocketControl {
  /** Closes the current socket on both sides with this code and reason. */
  cut(code?: number, reason?: string): Promise<void>;
  /** From now on the current socket passes nothing in either direction (it stays open). */
  silence(): void;
  /**
   * From now on the daemon's messages on the current socket wait at the route; the returned
   * function passes them on to the page, in order, and stops holding.
   */
  holdAnswers(): () => void;
  /** How many sockets the page opened so far. */
  opened(): number;
  /**
   * Resolves once the daemon sent the page a message matching `match` (on any socket), among
   * the messages from index `from` on (`mark()` gives the index of the next one).
   */
  received(match: (message: Record<string, unknown>) => boolean, from?: number): Promise<void>;
  mark(): number;
  /** Resolves once the page sent the daemon a message matching `match` (on any socket). */
  sent(match: (message: Record<string, unknown>) => boolean): Promise<void>;
  /** Refuses `/bootstrap` until the returned function is called (the page cannot reconnect). */
  holdOffReconnect(): Promise<() => Promise<void>>;
}

type Match = (message: Record<string, unknown>) => boolean;

/** The messages one way, and the waiters for one among them. */
class Log {
  readonly seen: Record<string, unknown>[] = [];
  private readonly waiters: { match: Match; resolve(): void }[] = [];

  add(text: string | Buffer): void {
    if (typeof text !== "string") return;
    const message: unknown = JSON.parse(text);
    if (typeof message !== "object" || message === null) return;
    const record = Object.fromEntries(Object.entries(message));
    this.seen.push(record);
    for (const waiter of this.waiters.splice(0)) {
      if (waiter.match(record)) waiter.resolve();
      else this.waiters.push(waiter);
    }
  }

  wait(match: Match, from = 0): Promise<void> {
    return this.seen.slice(from).some(match)
      ? Promise.resolve()
      : new Promise((resolve) => this.waiters.push({ match, resolve }));
  }
}

interface Socket {
  page: WebSocketRoute;
  silent: boolean;
  /** The daemon's messages held back, while holding. */
  held: (string | Buffer)[] | undefined;
}

export async function controlSocket(page: Page): Promise<SocketControl> {
  let current: Socket | undefined;
  let opened = 0;
  const fromDaemon = new Log();
  const fromPage = new Log();
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const entry: Socket = { page: ws, silent: false, held: undefined };
    current = entry;
    opened += 1;
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      if (entry.silent) return;
      fromPage.add(message);
      server.send(message);
    });
    server.onMessage((message) => {
      if (entry.silent) return;
      if (entry.held !== undefined) entry.held.push(message);
      else {
        fromDaemon.add(message);
        ws.send(message);
      }
    });
  });
  return {
    cut: async (code = 4000, reason = "network lost (test)") => {
      if (current === undefined) throw new Error("the page has no WebSocket to cut");
      await current.page.close({ code, reason });
    },
    silence: () => {
      if (current === undefined) throw new Error("the page has no WebSocket to silence");
      current.silent = true;
    },
    holdAnswers: () => {
      const entry = current;
      if (entry === undefined) throw new Error("the page has no WebSocket to hold");
      entry.held = [];
      return () => {
        const held = entry.held ?? [];
        entry.held = undefined;
        for (const message of held) {
          fromDaemon.add(message);
          entry.page.send(message);
        }
      };
    },
    opened: () => opened,
    received: (match, from) => fromDaemon.wait(match, from),
    mark: () => fromDaemon.seen.length,
    sent: (match) => fromPage.wait(match),
    holdOffReconnect: async () => {
      const refuse = (route: Route) => route.abort();
      await page.route("**/bootstrap", refuse);
      return () => page.unroute("**/bootstrap", refuse);
    },
  };
}
