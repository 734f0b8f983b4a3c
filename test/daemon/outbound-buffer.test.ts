/** The per-connection outbound buffer: one write per task, partial writes resumed on drain, the cap. */
import { expect, test } from "bun:test";
import { type RunBuffer, RunBufferPool } from "../../src/daemon/broker/run-buffers.ts";
import { OutboundBuffer } from "../../src/daemon/outbound-buffer.ts";

const text = (chunks: Uint8Array[]) => chunks.map((c) => new TextDecoder().decode(c)).join("");
/** Queues `line` with its UTF-8 size, as the socket transport does. */
const push = (buffer: OutboundBuffer, line: string) => buffer.push(line, Buffer.byteLength(line));

/** A peer that takes at most `room` bytes until given more; `taken` is what it took, write by write. */
function limitedPeer(room: number, capBytes: number, overCap: (n: number) => void = () => {}) {
  const taken: Uint8Array[] = [];
  const peer = { room, taken };
  const buffer = new OutboundBuffer(
    (b) => {
      const n = Math.min(peer.room, b.length);
      // A copy, as the kernel takes one (a Buffer's `slice` would be a view).
      peer.taken.push(new Uint8Array(b.subarray(0, n)));
      peer.room -= n;
      return n;
    },
    capBytes,
    overCap,
  );
  return { peer, buffer };
}

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
  push(buffer, "a\n");
  push(buffer, "b\n");
  push(buffer, "c\n");
  expect(writes).toHaveLength(0);
  await Promise.resolve();
  expect(writes.map((w) => new TextDecoder().decode(w))).toEqual(["a\nb\nc\n"]);
  expect(buffer.size).toBe(0);
});

test("lines queued as bytes leave as they are, in order with text lines; a partial write resumes in them", async () => {
  const bytes = (line: string) => new TextEncoder().encode(line);
  const { peer, buffer } = limitedPeer(4, 1024);
  push(buffer, "é\n");
  buffer.push(bytes("bytes 1\nbytes 2\n"), 16);
  push(buffer, "z\n");
  await Promise.resolve();
  expect(text(peer.taken)).toBe("é\nb");
  expect(buffer.size).toBe(3 + 16 + 2 - 4);
  peer.room = 100;
  buffer.drain();
  expect(text(peer.taken)).toBe("é\nbytes 1\nbytes 2\nz\n");
  // Alone in a task, bytes are written as they are (not copied first).
  const only = bytes("alone\n");
  const writes: Uint8Array[] = [];
  const direct = new OutboundBuffer(
    (b) => {
      writes.push(b);
      return b.length;
    },
    1024,
    () => {},
  );
  direct.push(only, only.length);
  await Promise.resolve();
  expect(writes).toEqual([only]);
  expect(writes[0]?.buffer).toBe(only.buffer);
});

test("runs of bytes a peer fell behind on leave as they are, not copied into one buffer; small lines are gathered", async () => {
  const run = (n: number) => new TextEncoder().encode(`${String(n).repeat(20 * 1024)}\n`);
  const writes: Uint8Array[] = [];
  let full = true;
  const buffer = new OutboundBuffer(
    (b) => {
      if (full) return 0;
      writes.push(b);
      return b.length;
    },
    1024 * 1024,
    () => {},
  );
  const [first, second, third] = [run(1), run(2), run(3)];
  buffer.push(first, first.length);
  await Promise.resolve();
  for (const line of [second, "a\n", "b\n", third]) buffer.push(line, line.length);
  full = false;
  buffer.drain();
  expect(writes.map((w) => w.length)).toEqual([first.length, second.length, 4, third.length]);
  expect([writes[0], writes[1], writes[3]]).toEqual([first, second, third]);
  for (const [at, run] of [first, second, third].entries())
    expect(writes[[0, 1, 3][at] ?? 0]?.buffer).toBe(run.buffer);
  expect(new TextDecoder().decode(writes[2])).toBe("a\nb\n");
  expect(buffer.size).toBe(0);
});

test("a partial write waits for drain and resumes where it stopped; nothing is lost or repeated", async () => {
  const { peer, buffer } = limitedPeer(3, 1024);
  push(buffer, "hello\n");
  await Promise.resolve();
  expect(text(peer.taken)).toBe("hel");
  push(buffer, "world\n");
  peer.room = 100;
  buffer.drain();
  expect(text(peer.taken)).toBe("hello\nworld\n");
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
  push(buffer, "x".repeat(50));
  await Promise.resolve();
  expect(over).toEqual([]);
  push(buffer, "12345");
  push(buffer, "67890");
  expect(over).toEqual([]);
  push(buffer, "!");
  expect(over).toEqual([61]);
});

test("lines leave as UTF-8, counted in bytes: a write that splits a character resumes with the rest of it", async () => {
  const over: number[] = [];
  const { peer, buffer } = limitedPeer(2, 10, (n) => over.push(n));
  push(buffer, "hé—\n");
  await Promise.resolve();
  // "h" and the first byte of "é" went out; the rest of it waits.
  expect(peer.taken.map((t) => t.length)).toEqual([2]);
  expect(buffer.size).toBe(5);
  // Five characters but nine bytes behind the write: within the cap; two more bytes are over it.
  push(buffer, "éééé\n");
  expect(over).toEqual([]);
  push(buffer, "..");
  expect(over).toEqual([16]);
  peer.room = 100;
  buffer.drain();
  expect(new TextDecoder().decode(Buffer.concat(peer.taken))).toBe("hé—\néééé\n..");
});

/** A run written into a buffer taken from `pool`, as the run writer writes one. */
function writeRun(pool: RunBufferPool, line: string): { run: RunBuffer; bytes: Uint8Array } {
  const run = pool.take();
  const length = run.bytes.write(line, 0, "latin1");
  return { run, bytes: run.bytes.subarray(0, length) };
}

test("held bytes are written at once after what waits; what the peer leaves waits held, not copied", async () => {
  const pool = new RunBufferPool();
  const { peer, buffer } = limitedPeer(6, 1024);
  push(buffer, "a\n");
  const first = writeRun(pool, "run 1\nrun 2\n");
  buffer.pushHeld(first.bytes, first.run);
  first.run.release(); // the writer's own hold
  // Written in the call, after the line queued before it, up to the peer's room.
  expect(text(peer.taken)).toBe("a\nrun ");
  // The peer still has to take the rest: the buffer is not back in the pool for the next run.
  expect(pool.idleCount).toBe(0);
  const second = writeRun(pool, "run 3\n");
  expect(second.run).not.toBe(first.run);
  buffer.pushHeld(second.bytes, second.run);
  second.run.release();
  push(buffer, "z\n");
  peer.room = 100;
  buffer.drain();
  expect(text(peer.taken)).toBe("a\nrun 1\nrun 2\nrun 3\nz\n");
  expect(buffer.size).toBe(0);
  // Both written: both back for the next runs, and neither can be given up twice.
  expect(pool.idleCount).toBe(2);
  expect(() => first.run.release()).toThrow("released more often");
});

test("a peer that is gone gives up every hold it had", () => {
  const pool = new RunBufferPool();
  const { buffer } = limitedPeer(0, 1024);
  for (const line of ["run 1\n", "run 2\n"]) {
    const { run, bytes } = writeRun(pool, line);
    buffer.pushHeld(bytes, run);
    run.release();
  }
  expect(pool.idleCount).toBe(0);
  buffer.clear();
  expect(pool.idleCount).toBe(2);
  // After the clear, nothing is held or queued any more.
  const late = writeRun(pool, "run 3\n");
  buffer.pushHeld(late.bytes, late.run);
  late.run.release();
  expect(pool.idleCount).toBe(2);
  expect(buffer.size).toBe(0);
});

test("a peer that takes a little at a time gets every run intact, each buffer reused once nobody holds it", async () => {
  // Runs from a pool, as the run writer sends them; the peer takes an uneven share, so some runs
  // wait held while the next ones are written into the buffers that came back.
  const pool = new RunBufferPool();
  const { peer, buffer } = limitedPeer(0, 64 * 1024 * 1024);
  const taken = new Set<RunBuffer>();
  let expected = "";
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let i = 0; i < 60; i++) {
    const length = 1 + next(120 * 1024);
    const line = `${String(i % 10).repeat(length - 1)}\n`;
    const { run, bytes } = writeRun(pool, line);
    taken.add(run);
    // What the last run left in the buffer is overwritten: a run still waiting in it would show.
    run.bytes.fill(0x21, length);
    buffer.pushHeld(bytes, run);
    run.release();
    expected += line;
    if (i % 3 === 2) {
      buffer.push(`line ${i}\n`, `line ${i}\n`.length);
      expected += `line ${i}\n`;
    }
    await Promise.resolve();
    // A little less than the runs bring, on average: the peer falls behind, then catches up.
    peer.room = next(i < 40 ? 110 * 1024 : 400 * 1024);
    buffer.drain();
  }
  peer.room = Number.MAX_SAFE_INTEGER;
  buffer.drain();
  await Promise.resolve();
  expect(buffer.size).toBe(0);
  const got = text(peer.taken);
  expect(got.length).toBe(expected.length);
  expect(got === expected).toBe(true);
  // Buffers were reused, and every hold was given up.
  expect(taken.size).toBeLessThan(60);
  for (const run of taken) expect(() => run.release()).toThrow("released more often");
});
