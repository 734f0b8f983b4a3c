/** `shard session import`'s rule (docs/placements.md): it never drops a line the placement has. */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { importSession } from "../../src/placements/session-transfer.ts";
import { forkFilePath, sessionFilePath } from "../../src/session/paths.ts";
import { tempDir } from "../agent/support/agent-process.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

test("a missing file or a strict prefix takes the copy; the same is same; a longer or diverged file is kept", () => {
  const home = tempDir("import");
  const path = sessionFilePath(home, "ses_a");
  expect(importSession(home, "ses_a", bytes("1\n2\n"))).toBe("imported");
  expect(readFileSync(path, "utf8")).toBe("1\n2\n");
  expect(importSession(home, "ses_a", bytes("1\n2\n"))).toBe("same");
  expect(importSession(home, "ses_a", bytes("1\n2\n3\n"))).toBe("imported");
  expect(importSession(home, "ses_a", bytes("1\n2\n"))).toBe("kept");
  expect(importSession(home, "ses_a", bytes("1\nX\n3\n4\n"))).toBe("kept");
  expect(readFileSync(path, "utf8")).toBe("1\n2\n3\n");
});

test("a fork is found under its source's forks/ and updated there; a fork the home lost comes back at the top level", () => {
  const home = tempDir("import-fork");
  const source = sessionFilePath(home, "ses_src");
  const fork = forkFilePath(source, "ses_fork");
  mkdirSync(dirname(fork), { recursive: true });
  writeFileSync(source, "s\n");
  writeFileSync(fork, "f1\n");
  expect(importSession(home, "ses_fork", bytes("f1\nf2\n"))).toBe("imported");
  expect(readFileSync(fork, "utf8")).toBe("f1\nf2\n");
  expect(existsSync(sessionFilePath(home, "ses_fork"))).toBe(false);
  expect(importSession(home, "ses_fork", bytes("f1\n"))).toBe("kept");

  const lost = tempDir("import-fork-lost");
  expect(importSession(lost, "ses_fork", bytes("f1\nf2\n"))).toBe("imported");
  expect(readFileSync(sessionFilePath(lost, "ses_fork"), "utf8")).toBe("f1\nf2\n");
});
