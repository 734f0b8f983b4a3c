/**
 * Control over a page's WebSocket to the daemon from the test, through Playwright's WebSocket
 * routing (the page keeps its real socket to the daemon; the route sits between the page and
 * it, so the page needs no test hook of its own): close it as a lost network or as the daemon
 * would, or stop passing messages either way (a half-open connection). `/bootstrap` can be
 * refused so that the page stays disconnected exactly as long as the test needs.
 */
import type { Page, Route, WebSocketRoute } from "playwright-core";

export interface SocketControl {
  /** Closes the current socket on both sides with this code and reason. */
  cut(code?: number, reason?: string): Promise<void>;
  /** From now on the current socket passes nothing in either direction (it stays open). */
  silence(): void;
  /** How many sockets the page opened so far. */
  opened(): number;
  /**
   * Resolves once the daemon sent the page a message matching `match` (on any socket), among
   * the messages from index `from` on (`mark()` gives the index of the next one).
   */
  received(match: (message: Record<string, unknown>) => boolean, from?: number): Promise<void>;
  mark(): number;
  /** Refuses `/bootstrap` until the returned function is called (the page cannot reconnect). */
  holdOffReconnect(): Promise<() => Promise<void>>;
}

export async function controlSocket(page: Page): Promise<SocketControl> {
  let current: { page: WebSocketRoute; silent: boolean } | undefined;
  let opened = 0;
  const seen: Record<string, unknown>[] = [];
  const waiters: { match: (m: Record<string, unknown>) => boolean; resolve(): void }[] = [];
  const arrived = (text: string | Buffer) => {
    if (typeof text !== "string") return;
    const message: unknown = JSON.parse(text);
    if (typeof message !== "object" || message === null) return;
    const record = Object.fromEntries(Object.entries(message));
    seen.push(record);
    for (const waiter of waiters.splice(0)) {
      if (waiter.match(record)) waiter.resolve();
      else waiters.push(waiter);
    }
  };
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const entry = { page: ws, silent: false };
    current = entry;
    opened += 1;
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      if (!entry.silent) server.send(message);
    });
    server.onMessage((message) => {
      if (entry.silent) return;
      arrived(message);
      ws.send(message);
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
    opened: () => opened,
    received: (match, from = 0) =>
      seen.slice(from).some(match)
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ match, resolve })),
    mark: () => seen.length,
    holdOffReconnect: async () => {
      const refuse = (route: Route) => route.abort();
      await page.route("**/bootstrap", refuse);
      return () => page.unroute("**/bootstrap", refuse);
    },
  };
}
