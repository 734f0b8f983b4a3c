/**
 * Result builders: tools report failures as values, never by throwing (docs/architecture.md §6.2).
 */
import type { ToolResult } from "../contracts/tool.ts";

export function errorResult(message: string, extra: Partial<ToolResult> = {}): ToolResult {
  return { ...extra, content: { kind: "error", message }, is_error: true };
}

export function textResult(text: string, extra: Partial<ToolResult> = {}): ToolResult {
  return { ...extra, content: { kind: "text", text }, is_error: false };
}
