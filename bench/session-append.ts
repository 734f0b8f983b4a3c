/** Append throughput, default durability (write per entry) vs fsync per entry. Run: bun bench/session-append.ts */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSession } from "../src/session/create-session.ts";

const text = "The quick brown fox jumps over the lazy dog; ".repeat(21); // ~1 KB entries

function measure(fsync: boolean, count: number): { perSec: number; usPerEntry: number } {
  const home = mkdtempSync(join(tmpdir(), "shard-bench-append-"));
  try {
    const store = createSession({ home, cwd: "/bench", fsync });
    const start = performance.now();
    for (let i = 0; i < count; i++) {
      store.append({
        type: "message",
        message: { id: `m${i}`, role: "user", content: [{ type: "text", text }] },
      });
    }
    const ms = performance.now() - start;
    store.close();
    return { perSec: (count / ms) * 1000, usPerEntry: (ms * 1000) / count };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

console.log("| bench | durability | entries | entries/s | µs/entry |");
console.log("|---|---|---|---|---|");
for (const [label, fsync, count] of [
  ["write (default)", false, 50_000],
  ["write + fsync", true, 2_000],
] as const) {
  const r = measure(fsync, count);
  console.log(
    `| session-append | ${label} | ${count} | ${r.perSec.toFixed(0)} | ${r.usPerEntry.toFixed(1)} |`,
  );
}
