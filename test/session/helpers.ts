/** Test helpers: a temp `$SHARD_HOME` and builders for the entries a runtime appends. */
import { createHash, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NewEntry } from "../../src/contracts/session-store.ts";
import type { ContentBlock } from "../../src/types/shared.ts";

export function tempHome(): { home: string; cleanup: () => void } {
  const home = mkdtempSync(join(tmpdir(), "shard-session-"));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

export function sha256(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

const msgId = (): string => `msg_${randomUUID()}`;

export function userText(text: string): NewEntry {
  return { type: "message", message: { id: msgId(), role: "user", content: [{ type: "text", text }] } };
}

export function assistantText(
  text: string,
  calls: { id: string; name: string; args: Record<string, unknown> }[] = [],
): NewEntry {
  const content: ContentBlock[] = [];
  if (text !== "") content.push({ type: "text", text });
  for (const c of calls) content.push({ type: "tool_call", id: c.id, name: c.name, args: c.args });
  return { type: "message", message: { id: msgId(), role: "assistant", content } };
}

export function toolResult(
  callId: string,
  text: string,
  extra: { exit_code?: number; is_error?: boolean } = {},
): NewEntry {
  return {
    type: "tool_result",
    message: {
      id: msgId(),
      role: "user",
      content: [{ type: "tool_result", tool_call_id: callId, content: { kind: "text", text }, ...extra }],
    },
  };
}

/** Spawns a fixture script with bun; stdout is read line by line. */
export function spawnFixture(name: string, args: string[]) {
  return Bun.spawn(["bun", join(import.meta.dir, "fixtures", name), ...args], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
}

/** Reads LF-terminated lines from a stream, resolving `until` when a predicate matches. */
export function lineReader(stream: ReadableStream<Uint8Array>) {
  const lines: string[] = [];
  type Waiter = { pred: (line: string) => boolean; resolve: (line: string) => void };
  const waiting: { current: Waiter | null } = { current: null };
  let pending = "";
  const done = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      pending += decoder.decode(chunk, { stream: true });
      let nl = pending.indexOf("\n");
      while (nl >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        lines.push(line);
        const w = waiting.current;
        if (w?.pred(line)) {
          waiting.current = null;
          w.resolve(line);
        }
        nl = pending.indexOf("\n");
      }
    }
  })();
  return {
    lines,
    done,
    until(pred: (line: string) => boolean): Promise<string> {
      const hit = lines.find(pred);
      if (hit !== undefined) return Promise.resolve(hit);
      return new Promise((resolve) => {
        waiting.current = { pred, resolve };
      });
    },
  };
}
