/** Shared fixtures for tool tests: real temp directories and a ToolContext around them. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ToolContext, ToolResult } from "../../src/contracts/tool.ts";

export function makeTempDir(prefix = "shard-tools-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Writes files given as relative path → content, creating directories. */
export function writeTree(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
}

export function toolContext(cwd: string, overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    cwd,
    signal: new AbortController().signal,
    toolCallId: "tc-test",
    askUser: () => Promise.reject(new Error("this tool must not ask the user")),
    ...overrides,
  };
}

/** The text of a result, whichever content kind it carries. */
export function resultText(result: ToolResult): string {
  const content = result.content;
  if (content.kind === "text") return content.text;
  if (content.kind === "error") return content.message;
  return JSON.stringify(content.value);
}
