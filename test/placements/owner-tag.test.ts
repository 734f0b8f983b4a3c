/**
 * The orphan sweep of a placement (docs/placements.md, orphans): a runtime started with the
 * owner tag of one still live on the same home kills that one before it opens the session.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { mockHome, SHARD_MAIN, tempDir } from "../agent/support/agent-process.ts";
import { CHILD_ENV } from "../support/child-env.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";

setDefaultTimeout(90_000);
const llm = useMockLlmServer();

function runtime(home: string, cwd: string, tag: string) {
  return Bun.spawn(
    [process.execPath, SHARD_MAIN, "agent", "--cwd", cwd, "--model", "mock/chat", "--owner-tag", tag],
    {
      env: { ...CHILD_ENV, SHARD_HOME: home, HOME: home },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    },
  );
}

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return text.split("\n")[0] ?? "";
}

test("a second runtime under the same owner tag kills the live one; another tag is left alone", async () => {
  const home = mockHome(llm().url);
  const cwd = tempDir("cwd");
  const orphan = runtime(home, cwd, "agent-one");
  expect(await firstLine(orphan.stdout)).toContain('"type":"hello"');
  const other = runtime(home, cwd, "agent-two");
  expect(await firstLine(other.stdout)).toContain('"type":"hello"');
  const next = runtime(home, cwd, "agent-one");
  expect(await firstLine(next.stdout)).toContain('"type":"hello"');
  // The orphan was killed (SIGKILL: 128 + 9), before the new one said hello.
  expect(await orphan.exited).toBe(137);
  const record = JSON.parse(readFileSync(join(home, "run", "placed", "agent-one.json"), "utf8"));
  expect(record.pid).toBe(next.pid);
  expect(other.exitCode).toBeNull();
  for (const p of [next, other]) p.stdin.end();
  expect(await next.exited).toBe(0);
  await other.exited;
  expect(await new Response(next.stderr).text()).toContain(
    `killed orphaned runtime ${orphan.pid} (owner tag agent-one)`,
  );
  // A runtime that ends drops its record.
  expect(existsSync(join(home, "run", "placed", "agent-one.json"))).toBe(false);
});

test("a bad owner tag is a usage error", async () => {
  const proc = Bun.spawn([process.execPath, SHARD_MAIN, "agent", "--owner-tag", "../x"], {
    env: { ...CHILD_ENV, SHARD_HOME: tempDir("home") },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(await proc.exited).toBe(2);
  expect(await new Response(proc.stderr).text()).toContain("--owner-tag");
});
