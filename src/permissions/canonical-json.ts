/** Canonical JSON (object keys sorted at every depth) so equal requests hash equally. */
import { createHash } from "node:crypto";
import { isRecord } from "../support/is-record.ts";

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isRecord(value)) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys(value[key]);
  return sorted;
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
