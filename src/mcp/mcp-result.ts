/**
 * A server's `tools/call` result as our ToolResult: text blocks joined, images passed on as
 * images, everything else named in a line. Bounded like every tool's output (src/tools/truncate.ts):
 * a server that answers with megabytes reaches the model as the first 50 KB and a note.
 */
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { ToolResult } from "../contracts/tool.ts";
import { errorResult, textResult } from "../tools/tool-result.ts";
import { capLine, DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatBytes, takeHead } from "../tools/truncate.ts";
import type { Image } from "../types/messages.ts";

const MAX_LINE_CHARS = 2000;
/** As `read`: providers refuse larger images anyway. */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const MAX_IMAGES = 8;

export function toToolResult(result: CallToolResult, toolName: string): ToolResult {
  const parts: string[] = [];
  const images: Image[] = [];
  for (const block of result.content ?? []) {
    if (block.type === "text") parts.push(block.text);
    else if (block.type === "image") {
      const bytes = Math.floor((block.data.length * 3) / 4);
      if (images.length >= MAX_IMAGES)
        parts.push(`[image (${block.mimeType}) left out: at most ${MAX_IMAGES} images]`);
      else if (bytes > MAX_IMAGE_BYTES)
        parts.push(
          `[image (${block.mimeType}, ${formatBytes(bytes)}) left out: larger than ${formatBytes(MAX_IMAGE_BYTES)}]`,
        );
      else images.push({ type: "image", data: block.data, mime_type: block.mimeType });
    } else if (block.type === "audio") parts.push(`[audio (${block.mimeType}) not shown]`);
    else if (block.type === "resource_link")
      parts.push(`[resource link: ${block.uri}${block.name ? ` (${block.name})` : ""}]`);
    else if (block.type === "resource") {
      const resource = block.resource;
      parts.push("text" in resource ? resource.text : `[resource ${resource.uri}: binary, not shown]`);
    }
  }
  // Only structured content: the model sees it as JSON text.
  if (parts.length === 0 && images.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent, null, 2));
  const text = bounded(parts.join("\n"), toolName);
  const extra = images.length > 0 ? { images } : {};
  if (result.isError === true) return errorResult(text === "" ? `${toolName} failed` : text, extra);
  return textResult(text === "" && images.length === 0 ? "(no output)" : text, extra);
}

function bounded(text: string, toolName: string): string {
  const lines = text.split("\n").map((line) => capLine(line, MAX_LINE_CHARS));
  const head = takeHead(lines, { maxLines: DEFAULT_MAX_LINES, maxBytes: DEFAULT_MAX_BYTES });
  if (head.truncatedBy === null) return head.text;
  const limit = head.truncatedBy === "bytes" ? formatBytes(DEFAULT_MAX_BYTES) : `${DEFAULT_MAX_LINES} lines`;
  return (
    `${head.text}\n[output truncated: showing ${head.keptLines} of ${lines.length} lines (${limit} limit). ` +
    `${toolName} returned more; ask it for less (narrower arguments or paging) to see the rest.]`
  );
}
