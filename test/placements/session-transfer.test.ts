/** `shard session import`'s rule (docs/placements.md): it never drops a line the placement has. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { importSession } from "../../src/placements/session-transfer.ts";
import { sessionFilePath } from "../../src/session/paths.ts";
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
