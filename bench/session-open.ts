/**
 * Open + liveWindow of a 100,000-entry (~100 MB) session. Run: bun bench/session-open.ts
 * Prints markdown table rows.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSession } from "../src/session/create-session.ts";
import { openSession } from "../src/session/open-session.ts";

const ENTRIES = 100_000;
const home = mkdtempSync(join(tmpdir(), "shard-bench-open-"));
try {
  const store = createSession({ home, cwd: "/bench/project" });
  const text = "The quick brown fox jumps over the lazy dog; ".repeat(21); // ~950 chars
  const buildStart = performance.now();
  for (let i = 0; i < ENTRIES; i++) {
    const kind = i % 3;
    if (kind === 0) {
      store.append({
        type: "message",
        message: { id: `m${i}`, role: "user", content: [{ type: "text", text }] },
      });
    } else if (kind === 1) {
      store.append({
        type: "message",
        message: {
          id: `m${i}`,
          role: "assistant",
          content: [
            { type: "text", text: text.slice(0, 700) },
            { type: "tool_call", id: `c${i}`, name: "read", args: { path: `src/file${i}.ts` } },
          ],
        },
      });
    } else {
      store.append({
        type: "tool_result",
        message: {
          id: `m${i}`,
          role: "user",
          content: [{ type: "tool_result", tool_call_id: `c${i - 1}`, content: { kind: "text", text } }],
        },
      });
    }
  }
  store.close();
  const buildMs = performance.now() - buildStart;
  const bytes = statSync(store.path).size;
  const mb = bytes / 1024 / 1024;

  const rows: string[] = [];
  for (let run = 1; run <= 3; run++) {
    const t0 = performance.now();
    const opened = openSession({ home, idOrPath: store.sessionId });
    if (!opened.ok) throw new Error(opened.error.message);
    const t1 = performance.now();
    const window = opened.store.liveWindow();
    const t2 = performance.now();
    opened.store.close();
    if (window.messages.length !== ENTRIES) throw new Error("window size mismatch");
    rows.push(
      `| session-open | run ${run}: ${ENTRIES} entries, ${mb.toFixed(1)} MB | open ${(t1 - t0).toFixed(0)} ms (${(mb / ((t1 - t0) / 1000)).toFixed(0)} MB/s) | liveWindow ${(t2 - t1).toFixed(1)} ms |`,
    );
  }
  console.log("| bench | case | open | liveWindow |");
  console.log("|---|---|---|---|");
  for (const row of rows) console.log(row);
  console.log(`| session-open | build (${ENTRIES} appends) | ${buildMs.toFixed(0)} ms | — |`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
