/**
 * A client of an agent channel wired as the unix socket wires one (src/daemon/socket.ts): what it
 * is sent goes through an `OutboundBuffer` to `write`, which takes what it can and returns how
 * much. For tests and benches of the delta path without a socket.
 */
import type { ClientConnection } from "../../../src/daemon/broker/client-connection.ts";
import { OutboundBuffer } from "../../../src/daemon/outbound-buffer.ts";

export function outboundClient(
  id: string,
  write: (bytes: Uint8Array) => number,
): { client: ClientConnection; outbound: OutboundBuffer } {
  const outbound = new OutboundBuffer(write, 64 * 1024 * 1024, () => {});
  const client: ClientConnection = {
    id,
    localTrust: true,
    send: () => {},
    sendEncoded: (message) => outbound.pushWire(message.wire, message.byteLength, message.hold),
  };
  return { client, outbound };
}
