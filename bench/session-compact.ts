/** Deterministic compaction of a ~200k-token live window. Run: bun bench/session-compact.ts */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compactSession } from "../src/session/compaction/compact-session.ts";
import { contextTokens } from "../src/session/compaction/token-estimate.ts";
import { createSession } from "../src/session/create-session.ts";

const home = mkdtempSync(join(tmpdir(), "shard-bench-compact-"));
try {
  const store = createSession({ home, cwd: "/bench" });
  const chunk = "const value = compute(input); // a line of code\n".repeat(20); // ~1000 chars ≈ 250 tokens
  let turn = 0;
  while (contextTokens(store.liveWindow().messages) < 200_000) {
    turn++;
    store.append({
      type: "message",
      message: {
        id: `u${turn}`,
        role: "user",
        content: [{ type: "text", text: `Request ${turn}: refactor module ${turn}` }],
      },
    });
    store.append({
      type: "message",
      message: {
        id: `a${turn}`,
        role: "assistant",
        content: [
          { type: "text", text: `Reading module ${turn}.` },
          { type: "tool_call", id: `r${turn}`, name: "read", args: { path: `src/m${turn}.ts` } },
          { type: "tool_call", id: `b${turn}`, name: "bash", args: { command: `bun test m${turn}` } },
        ],
      },
    });
    for (const id of [`r${turn}`, `b${turn}`]) {
      store.append({
        type: "tool_result",
        message: {
          id: `t${id}`,
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_call_id: id,
              content: { kind: "text", text: chunk.repeat(2) },
              exit_code: 0,
            },
          ],
        },
      });
    }
    store.append({
      type: "message",
      message: { id: `p${turn}`, role: "assistant", content: [{ type: "text", text: `Done with ${turn}.` }] },
    });
  }
  const entries = store.entries().length;
  const start = performance.now();
  const result = await compactSession(store, { keepRecentTokens: 20_000 });
  const ms = performance.now() - start;
  if (!("compacted" in result) || !result.compacted) throw new Error(JSON.stringify(result));
  console.log("| bench | window | entries | time | tokens before → after |");
  console.log("|---|---|---|---|---|");
  console.log(
    `| session-compact | ~200k tokens, deterministic | ${entries} | ${ms.toFixed(1)} ms | ${result.tokens_before} → ${result.tokens_after} |`,
  );
  store.close();
} finally {
  rmSync(home, { recursive: true, force: true });
}
