/**
 * A `Connect` for the daemon's unix socket (local trust: no handshake beyond `hello`), JSONL
 * both ways, via `node:net` so it runs under Bun and Node alike.
 */
import { createConnection } from "node:net";
import { failure } from "../wire/errors.ts";
import { JsonlDecoder } from "../wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../wire/jsonl-encoder.ts";
import type { Connect, Connected } from "./channel-transport.ts";

export function unixSocketConnect(path: string): Connect {
  return (sink) =>
    new Promise<Connected>((resolve) => {
      const socket = createConnection({ path });
      let open = false;
      let ended = false;
      const decoder = new JsonlDecoder({ value: (v) => sink.message(v), error: (e) => sink.invalid(e) });
      socket.on("data", (chunk: Buffer) => decoder.push(chunk));
      socket.on("connect", () => {
        open = true;
        resolve({
          ok: true,
          transport: {
            send: (message) => {
              if (!ended) socket.write(encodeJsonLine(message));
            },
            close: () => {
              ended = true;
              socket.end();
              socket.destroySoon();
            },
          },
        });
      });
      socket.on("error", (err: Error) => {
        if (open) return; // the close that follows reports it
        resolve({
          ...failure(
            "NOT_FOUND",
            `no daemon answers at ${path} (${err.message}); start one with \`shard daemon\``,
          ),
          retry: true,
        });
      });
      socket.on("close", () => {
        ended = true;
        if (open) sink.closed("the daemon closed the connection");
      });
    });
}
