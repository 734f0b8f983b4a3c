/** Test helpers: a temp `$SHARD_HOME` and builders for the entries a runtime appends. */
import { createHash, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NewEntry } from "../../src/contracts/session-store.ts";
import type { ContentBlock } from "../../src/types/messages.ts";

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

export interface LineReaderSource {
  /** Names the stream in errors, e.g. the fixture's file name. */
  name?: string;
  /** The process's stderr: its tail goes into errors (a crashed fixture says why there). */
  stderr?: ReadableStream<Uint8Array>;
}

/**
 * Reads LF-terminated lines from a stream. `until` resolves with the first line (already read or
 * still to come) that matches, and rejects, naming what it waited for, once the stream has ended
 * without one: a child that died early fails the test at once instead of at its timeout.
 */
export function lineReader(stream: ReadableStream<Uint8Array>, source: LineReaderSource = {}) {
  const lines: string[] = [];
  type Waiter = {
    pred: (line: string) => boolean;
    what: string;
    resolve: (line: string) => void;
    reject: (err: Error) => void;
  };
  let waiters: Waiter[] = [];
  let ended = false;
  let stderr = "";
  const stderrDone = (async () => {
    if (!source.stderr) return;
    const decoder = new TextDecoder();
    for await (const chunk of source.stderr) stderr += decoder.decode(chunk, { stream: true });
  })();
  const endedError = (what: string): Error => {
    const last = lines.length > 0 ? `; last: ${JSON.stringify(lines.at(-1)?.slice(0, 200))}` : "";
    const err = stderr.trim() ? `\nstderr: ${stderr.trim().slice(-2000)}` : "";
    return new Error(
      `${source.name ?? "stream"}: output ended before a line matching ${what} (${lines.length} lines read${last})${err}`,
    );
  };
  const push = (line: string) => {
    lines.push(line);
    waiters = waiters.filter((w) => {
      if (!w.pred(line)) return true;
      w.resolve(line);
      return false;
    });
  };
  const done = (async () => {
    const decoder = new TextDecoder();
    let pending = "";
    try {
      for await (const chunk of stream) {
        pending += decoder.decode(chunk, { stream: true });
        let nl = pending.indexOf("\n");
        while (nl >= 0) {
          push(pending.slice(0, nl));
          pending = pending.slice(nl + 1);
          nl = pending.indexOf("\n");
        }
      }
    } finally {
      ended = true;
      // The process closes both streams as it exits: read all of stderr, so the error says why.
      await stderrDone;
      for (const w of waiters.splice(0)) w.reject(endedError(w.what));
    }
  })();
  return {
    lines,
    done,
    /** `what` describes the awaited line in the error; by default the predicate's source. */
    until(pred: (line: string) => boolean, what: string = pred.toString()): Promise<string> {
      const hit = lines.find(pred);
      if (hit !== undefined) return Promise.resolve(hit);
      if (ended) return Promise.reject(endedError(what));
      return new Promise((resolve, reject) => {
        waiters.push({ pred, what, resolve, reject });
      });
    },
  };
}
