/**
 * A unix-socket relay in front of the daemon's socket, so a test can cut the network between
 * the SDK and the daemon (every relayed connection closed, new ones refused) and restore it,
 * without touching the daemon or the SDK.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Socket, UnixSocketListener } from "bun";
import { tempDir } from "../../agent/support/agent-process.ts";

interface Pair {
  upstream?: Socket<undefined>;
  queued: Uint8Array[];
}

export class SocketProxy {
  readonly path = join(tempDir("proxy"), "relay.sock");
  private listener: UnixSocketListener<Pair> | undefined;
  private readonly open = new Set<Socket<Pair>>();

  constructor(private readonly target: string) {
    this.listen();
  }

  /** Drops every relayed connection and refuses new ones until `restore`. */
  cut(): void {
    this.listener?.stop(true);
    this.listener = undefined;
    for (const s of this.open) {
      s.data.upstream?.end();
      s.end();
    }
    this.open.clear();
    rmSync(this.path, { force: true });
  }

  restore(): void {
    this.listen();
  }

  stop(): void {
    this.cut();
  }

  private listen(): void {
    const target = this.target;
    const open = this.open;
    this.listener = Bun.listen<Pair>({
      unix: this.path,
      socket: {
        open(client) {
          client.data = { queued: [] };
          open.add(client);
          void Bun.connect<undefined>({
            unix: target,
            socket: {
              data: (_up, chunk) => {
                client.write(chunk);
              },
              close: () => {
                client.end();
              },
              error: () => {
                client.end();
              },
            },
          }).then((upstream) => {
            client.data.upstream = upstream;
            for (const chunk of client.data.queued.splice(0)) upstream.write(chunk);
          });
        },
        data(client, chunk) {
          if (client.data.upstream) client.data.upstream.write(chunk);
          else client.data.queued.push(chunk.slice());
        },
        close(client) {
          open.delete(client);
          client.data.upstream?.end();
        },
        error(client) {
          client.data.upstream?.end();
        },
      },
    });
  }
}
