/**
 * A stand-in for `shard agent` whose exit is held (a mock step): the daemon runs it through
 * `shardCommand` with the path of a release file as its first argument (the runtime arguments
 * after it are ignored). It becomes ready like a real runtime (hello, then sync), accepts any
 * `prompt`, and on stdin EOF — the daemon stopping it — waits until the release file exists
 * before it exits.
 */
import { existsSync, watch } from "node:fs";
import { dirname } from "node:path";
import { JsonlDecoder } from "../../../src/wire/jsonl-decoder.ts";

const write = (value: object) => process.stdout.write(`${JSON.stringify(value)}\n`);

async function released(path: string): Promise<void> {
  const watcher = watch(dirname(path));
  try {
    await new Promise<void>((resolve) => {
      watcher.on("change", () => {
        if (existsSync(path)) resolve();
      });
      if (existsSync(path)) resolve();
    });
  } finally {
    watcher.close();
  }
}

if (import.meta.main) {
  const releasePath = process.argv[2] ?? "";
  write({ type: "hello", protocol_version: "0.1.0", server_version: "0.1.0", capabilities: [] });
  write({ type: "sync", status: "idle", mode: "build", live_window: { messages: [] }, pending_requests: [] });
  const decoder = new JsonlDecoder({
    value: (value) => {
      if (typeof value !== "object" || value === null || !("type" in value) || value.type !== "prompt")
        return;
      const id = "id" in value && typeof value.id === "string" ? value.id : undefined;
      write({ type: "response", command: "prompt", success: true, ...(id !== undefined ? { id } : {}) });
    },
    error: () => {},
  });
  for await (const chunk of Bun.stdin.stream()) decoder.push(chunk);
  await released(releasePath);
}
