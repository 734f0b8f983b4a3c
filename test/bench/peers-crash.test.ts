import { expect, test } from "bun:test";
import { crashSummary } from "../../bench/peers/child.ts";
import { withDeadline } from "../../bench/peers/deadline.ts";

test("a Node crash is summed up by its error line and code, not its stack", () => {
  const stderr = [
    "node:events:497",
    "      throw er; // Unhandled 'error' event",
    "      ^",
    "",
    "Error: write ENOBUFS",
    "    at afterWriteDispatched (node:internal/stream_base_commons:160:15)",
    "    at writeGeneric (node:internal/stream_base_commons:151:3)",
    "Emitted 'error' event on Socket instance at:",
    "  errno: -105,",
    "  code: 'ENOBUFS',",
    "  syscall: 'write'",
    "}",
    "",
    "Node.js v20.20.2",
  ].join("\n");
  expect(crashSummary(stderr)).toBe("Error: write ENOBUFS / code: 'ENOBUFS',");
  const oom =
    "<--- Last few GCs --->\n\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n 1: 0xb8d0a3 node::Abort() [node]\n";
  expect(crashSummary(oom)).toBe(
    "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory",
  );
  expect(crashSummary("starting\nlistening\nbye\n")).toBe("starting / listening / bye");
});

test("a wait past its deadline fails with what it waited for", async () => {
  const never = new Promise<void>(() => {});
  await expect(withDeadline(never, 10, "for hello")).rejects.toThrow("timed out after 0 s for hello");
  expect(await withDeadline(Promise.resolve(7), 1000, "for a value")).toBe(7);
});
