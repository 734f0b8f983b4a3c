/** `logs/daemon.log` is capped: past the cap it becomes `daemon.log.1` and a new file starts. */
import { expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { DaemonLog } from "../../src/daemon/daemon-log.ts";
import { tempDir } from "../agent/support/agent-process.ts";

test("the log rotates at its cap and never grows past it", () => {
  const path = join(tempDir("logs"), "logs", "daemon.log");
  const log = new DaemonLog(path, 1000);
  for (let i = 0; i < 40; i++) log.write(`line ${i} ${"x".repeat(40)}`);
  expect(statSync(path).size).toBeLessThanOrEqual(1000);
  expect(existsSync(`${path}.1`)).toBe(true);
  expect(statSync(`${path}.1`).size).toBeLessThanOrEqual(1000);
  expect(readFileSync(path, "utf8")).toContain("line 39 ");
  // One line per write, newlines inside a message folded so a line stays one entry.
  log.write("two\nlines");
  expect(readFileSync(path, "utf8").trimEnd().split("\n").at(-1)).toEndWith("two lines");
});
