import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import {
  buildProtocolSchema,
  PROTOCOL_SCHEMA_PATH,
  serializeProtocolSchema,
} from "../../scripts/export-schema.ts";
import { buildProtocolReference, PROTOCOL_REFERENCE_PATH } from "../../scripts/protocol-reference.ts";
import { COMMAND_SCHEMAS, EVENT_SCHEMAS } from "../../src/types/catalog.ts";
import { COMMAND_ENTRIES } from "../../src/types/command-table.ts";
import { ERROR_CODES } from "../../src/types/errors.ts";
import { ADDED_EVENT_TYPES, ADDED_FIELDS } from "../../src/types/protocol-additions.ts";

interface ProtocolDocument {
  $schema: string;
  anyOf: { $ref: string }[];
  "x-commands": Record<string, { $ref: string }>;
  "x-results": Record<string, { $ref: string }>;
  "x-events": Record<string, { $ref: string }>;
  $defs: Record<string, { properties?: { type?: { const?: string } } }>;
}

const document = buildProtocolSchema() as ProtocolDocument;

/** Every value of `key` anywhere in the document. */
function collect(node: unknown, key: string, out: unknown[] = []): unknown[] {
  if (Array.isArray(node)) for (const item of node) collect(item, key, out);
  else if (node !== null && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === key) out.push(v);
      collect(v, key, out);
    }
  }
  return out;
}

function defOf(ref: string) {
  expect(ref.startsWith("#/$defs/")).toBe(true);
  return document.$defs[ref.slice("#/$defs/".length)];
}

describe("docs/protocol.schema.json", () => {
  test("the committed file matches src/types", () => {
    const committed = readFileSync(PROTOCOL_SCHEMA_PATH, "utf8");
    const fresh = serializeProtocolSchema(document);
    expect(
      committed === fresh
        ? "up to date"
        : "stale: run `bun run schema` to regenerate docs/protocol.schema.json",
    ).toBe("up to date");
  });

  test("is a draft 2020-12 document whose every $ref resolves into $defs", () => {
    expect(document.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    const refs = collect(document, "$ref");
    expect(refs.length).toBeGreaterThan(100);
    for (const ref of refs) expect(defOf(String(ref))).toBeDefined();
    // Nested $id would re-base relative refs; the exporter turns them all into $defs.
    expect(collect(document, "$id")).toEqual([]);
  });

  test("every command has a result schema named <PascalCase type>Result", () => {
    const pascal = (type: string) =>
      type
        .split(/[._]/)
        .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
        .join("");
    const missing = [...COMMAND_SCHEMAS.keys()].filter(
      (type) => document["x-results"][type]?.$ref !== `#/$defs/${pascal(type)}Result`,
    );
    expect(missing).toEqual([]);
    expect(Object.keys(document["x-results"]).sort()).toEqual([...COMMAND_SCHEMAS.keys()].sort());
  });

  test("names every command and event by its type, plus the response", () => {
    expect(Object.keys(document["x-commands"]).sort()).toEqual([...COMMAND_SCHEMAS.keys()].sort());
    expect(Object.keys(document["x-events"]).sort()).toEqual([...EVENT_SCHEMAS.keys()].sort());
    for (const [type, ref] of [
      ...Object.entries(document["x-commands"]),
      ...Object.entries(document["x-events"]),
    ]) {
      expect(defOf(ref.$ref)?.properties?.type?.const).toBe(type);
    }
    expect(document.anyOf).toHaveLength(COMMAND_SCHEMAS.size + EVENT_SCHEMAS.size + 1);
    expect(document.$defs.Response?.properties?.type?.const).toBe("response");
  });

  test("carries the shared and result types as $defs", () => {
    for (const name of [
      "AgentInfo",
      "RuntimeState",
      "JobState",
      "RunState",
      "JobStrategy",
      "RunSnapshot",
      "JobSnapshot",
      "ModeDescriptor",
      "ErrorCode",
      "Envelope",
      "SessionSummary",
      "SessionListResult",
      "SessionActivateResult",
      "WorkspaceDetail",
      "TreeNode",
    ]) {
      expect({ name, present: name in document.$defs }).toEqual({ name, present: true });
    }
  });
});

describe("docs/protocol.md", () => {
  test("the committed reference matches the command table and schemas", () => {
    const committed = readFileSync(PROTOCOL_REFERENCE_PATH, "utf8");
    expect(
      committed === buildProtocolReference()
        ? "up to date"
        : "stale: run `bun run schema` to regenerate docs/protocol.md",
    ).toBe("up to date");
  });

  test("lists every command with its result, every event and every error code", () => {
    const reference = buildProtocolReference();
    for (const type of COMMAND_SCHEMAS.keys()) expect(reference).toContain(`#### \`${type}\``);
    for (const type of EVENT_SCHEMAS.keys()) expect(reference).toContain(`#### \`${type}\``);
    for (const code of ERROR_CODES) expect(reference).toContain(`| \`${code}\` |`);
    for (const entry of COMMAND_ENTRIES) expect(reference).toContain(`\`${String(entry.result.$id)}\``);
  });

  test("every field named as our addition is a field of that message", () => {
    const schemas = new Map([...COMMAND_SCHEMAS, ...EVENT_SCHEMAS]);
    for (const [type, fields] of Object.entries(ADDED_FIELDS)) {
      const schema = schemas.get(type);
      expect({ type, known: schema !== undefined }).toEqual({ type, known: true });
      for (const field of fields)
        expect({ type, field, known: field in (schema?.properties ?? {}) }).toEqual({
          type,
          field,
          known: true,
        });
    }
    for (const type of ADDED_EVENT_TYPES) expect(EVENT_SCHEMAS.has(type)).toBe(true);
  });
});
