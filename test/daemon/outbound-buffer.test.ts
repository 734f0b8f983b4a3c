/** The per-connection outbound buffer: one write per task, partial writes resumed on drain, the cap. */
import { expect, test } from "bun:test";
import { OutboundBuffer } from "../../src/daemon/outbound-buffer.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (chunks: Uint8Array[]) => chunks.map((c) => new TextDecoder().decode(c)).join("");

test("messages queued in one task leave in one write", async () => {
  const writes: Uint8Array[] = [];
  const buffer = new OutboundBuffer(
    (b) => {
      writes.push(b.slice());
      return b.length;
    },
    1024,
    () => {},
  );
  buffer.push(bytes("a\n"));
  buffer.push(bytes("b\n"));
  buffer.push(bytes("c\n"));
  expect(writes).toHaveLength(0);
  await Promise.resolve();
  expect(writes.map((w) => new TextDecoder().decode(w))).toEqual(["a\nb\nc\n"]);
  expect(buffer.size).toBe(0);
});

test("a partial write waits for drain and resumes where it stopped; nothing is lost or repeated", async () => {
  const taken: Uint8Array[] = [];
  let room = 3;
  const buffer = new OutboundBuffer(
    (b) => {
      const n = Math.min(room, b.length);
      taken.push(b.slice(0, n));
      room -= n;
      return n;
    },
    1024,
    () => {},
  );
  buffer.push(bytes("hello\n"));
  await Promise.resolve();
  expect(text(taken)).toBe("hel");
  buffer.push(bytes("world\n"));
  room = 100;
  buffer.drain();
  expect(text(taken)).toBe("hello\nworld\n");
  expect(buffer.size).toBe(0);
});

test("a peer that stops taking bytes is reported once more than the cap waits behind its write", async () => {
  const over: number[] = [];
  const buffer = new OutboundBuffer(
    () => 0,
    10,
    (n) => over.push(n),
  );
  // One large message in progress is not over the cap by itself.
  buffer.push(bytes("x".repeat(50)));
  await Promise.resolve();
  expect(over).toEqual([]);
  buffer.push(bytes("12345"));
  buffer.push(bytes("67890"));
  expect(over).toEqual([]);
  buffer.push(bytes("!"));
  expect(over).toEqual([61]);
});
