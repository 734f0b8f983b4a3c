/**
 * The source of a resource that loads `value`'s data from the daemon: false (no fetch) until the
 * connection is open and `value` is known, and a new key at every opening, so the data is asked
 * for once the socket is up and again after a reconnect.
 */
import type { ControlRoom } from "./control-room.ts";

export function onlineKey<T>(room: ControlRoom, value: T | undefined): [T, number] | false {
  const opening = room.online();
  return opening === false || value === undefined ? false : [value, opening];
}
