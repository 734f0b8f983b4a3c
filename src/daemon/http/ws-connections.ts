/**
 * The open WebSocket connections of each principal, so revoking a browser closes them
 * (docs/architecture.md §10.2).
 */

export interface Closable {
  /** Closes the TCP connection at once (src/daemon/http/websocket.ts says why without a close frame). */
  shut(): void;
}

export class WsConnections {
  private readonly byPrincipal = new Map<string, Set<Closable>>();

  add(principal: string, connection: Closable): void {
    let set = this.byPrincipal.get(principal);
    if (!set) {
      set = new Set();
      this.byPrincipal.set(principal, set);
    }
    set.add(connection);
  }

  remove(principal: string, connection: Closable): void {
    const set = this.byPrincipal.get(principal);
    if (!set) return;
    set.delete(connection);
    if (set.size === 0) this.byPrincipal.delete(principal);
  }

  /** Closes every connection of the principal; returns how many there were. */
  closeAll(principal: string): number {
    const set = this.byPrincipal.get(principal);
    if (!set) return 0;
    this.byPrincipal.delete(principal);
    for (const connection of set) connection.shut();
    return set.size;
  }
}
