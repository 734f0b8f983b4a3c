/**
 * Exports the wire protocol (src/types) as one JSON Schema document, draft 2020-12, for
 * clients in other languages. Every schema with a TypeBox `$id` becomes a `$defs` entry and
 * every nested use a `$ref`, so each shape appears exactly once.
 * Run as a script (`bun run schema`) to regenerate docs/protocol.schema.json and the reference
 * docs/protocol.md (scripts/protocol-reference.ts).
 */
import { join } from "node:path";
import { KindGuard, type TObject, type TSchema } from "@sinclair/typebox";
import { atomicWriteFileSync } from "../src/support/atomic-write.ts";
import * as agentCommands from "../src/types/agent-commands.ts";
import * as agentEvents from "../src/types/agent-events.ts";
import * as agentInfo from "../src/types/agent-info.ts";
import * as agentResults from "../src/types/agent-results.ts";
import * as auth from "../src/types/auth.ts";
import { COMMAND_SCHEMAS, EVENT_SCHEMAS, RESPONSE_SCHEMA } from "../src/types/catalog.ts";
import { COMMAND_ENTRIES } from "../src/types/command-table.ts";
import * as controls from "../src/types/controls.ts";
import * as envelope from "../src/types/envelope.ts";
import * as errors from "../src/types/errors.ts";
import * as httpAuth from "../src/types/http-auth.ts";
import * as shared from "../src/types/messages.ts";
import * as orchestrator from "../src/types/orchestrator.ts";
import * as orchestratorEvents from "../src/types/orchestrator-events.ts";
import * as permissions from "../src/types/permissions.ts";
import * as providerStatus from "../src/types/provider-status.ts";
import * as response from "../src/types/response.ts";
import * as sessionOp from "../src/types/session-op.ts";
import * as sessionFirst from "../src/types/sessions.ts";
import * as streamEvents from "../src/types/stream-events.ts";
import * as subagent from "../src/types/subagent.ts";
import * as subagentJobs from "../src/types/subagent-jobs.ts";
import * as workspace from "../src/types/workspace.ts";
import * as workspaceProjection from "../src/types/workspace-projection.ts";
import { buildProtocolReference, PROTOCOL_REFERENCE_PATH } from "./protocol-reference.ts";

export const PROTOCOL_SCHEMA_PATH = join(import.meta.dir, "..", "docs", "protocol.schema.json");

/** Modules whose `$id`-named exports (shared types, result data) become `$defs` too. */
const TYPE_MODULES: readonly Record<string, unknown>[] = [
  envelope,
  errors,
  response,
  shared,
  permissions,
  controls,
  agentCommands,
  agentResults,
  agentEvents,
  streamEvents,
  sessionOp,
  sessionFirst,
  providerStatus,
  agentInfo,
  orchestrator,
  orchestratorEvents,
  subagentJobs,
  subagent,
  workspaceProjection,
  workspace,
  auth,
  httpAuth,
];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Keywords whose values are data, not subschemas: copied verbatim. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);

class DefsBuilder {
  readonly defs = new Map<string, Json>();
  private readonly sources = new Map<string, string>();

  /** Registers a named schema (once) and returns its `$defs` key. */
  register(schema: TSchema): string {
    const id = schema.$id;
    if (typeof id !== "string") throw new Error("only $id-named schemas become $defs");
    const source = JSON.stringify(schema);
    const known = this.sources.get(id);
    if (known !== undefined) {
      if (known !== source) throw new Error(`two different schemas share $id ${id}`);
      return id;
    }
    this.sources.set(id, source);
    this.defs.set(id, null); // reserve first: recursive schemas refer to themselves
    this.defs.set(id, this.convert(schema, true));
    return id;
  }

  private convert(node: unknown, isDefRoot = false): Json {
    if (Array.isArray(node)) return node.map((item) => this.convert(item));
    if (node === null || typeof node !== "object") return node as Json;
    const schema = node as Record<string, unknown>;
    if (!isDefRoot && typeof schema.$id === "string") {
      return { $ref: `#/$defs/${this.register(schema as TSchema)}` };
    }
    const out: { [key: string]: Json } = {};
    if (typeof schema.$id === "string") out.title = schema.$id;
    for (const [key, value] of Object.entries(schema)) {
      if (key === "$id" || key === "additionalItems") continue; // additionalItems: see `items`
      if (key === "$ref" && typeof value === "string") {
        out.$ref = `#/$defs/${value}`;
      } else if (key === "items" && Array.isArray(value)) {
        // TypeBox tuples use the draft-07 array form of `items`.
        out.prefixItems = value.map((item) => this.convert(item));
        out.items = false;
      } else if (DATA_KEYWORDS.has(key)) {
        out[key] = value as Json;
      } else {
        out[key] = this.convert(value);
      }
    }
    return out;
  }
}

/** `type` → `$ref` for the catalog's messages (keys come from the catalog maps). */
function refsOf(builder: DefsBuilder, schemas: ReadonlyMap<string, TObject>): Record<string, Json> {
  const refs: Record<string, Json> = {};
  for (const [type, schema] of schemas) {
    refs[type] = { $ref: `#/$defs/${builder.register(schema)}` };
  }
  return refs;
}

export function buildProtocolSchema(): object {
  const builder = new DefsBuilder();
  const commands = refsOf(builder, COMMAND_SCHEMAS);
  const results: Record<string, Json> = {};
  for (const entry of COMMAND_ENTRIES)
    results[entry.type] = { $ref: `#/$defs/${builder.register(entry.result)}` };
  const events = refsOf(builder, EVENT_SCHEMAS);
  const responseRef = { $ref: `#/$defs/${builder.register(RESPONSE_SCHEMA)}` };
  for (const module of TYPE_MODULES) {
    for (const value of Object.values(module)) {
      if (KindGuard.IsSchema(value) && typeof value.$id === "string") builder.register(value);
    }
  }
  const defs = Object.fromEntries([...builder.defs.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "Shard wire protocol",
    description:
      "Every message of the Shard wire protocol (docs/protocol.md) with Shard's additions (docs/protocol-additions.md). `x-commands` maps each command type to its schema, `x-results` to the schema of its successful `response.data` (an empty result is sent without `data`), `x-events` each event type. Generated from src/types by scripts/export-schema.ts; run `bun run schema` after changing a schema.",
    "x-protocol-version": envelope.PROTOCOL_VERSION,
    "x-commands": commands,
    "x-results": results,
    "x-events": events,
    anyOf: [...Object.values(commands), ...Object.values(events), responseRef],
    $defs: defs,
  };
}

/** The exact bytes of docs/protocol.schema.json. */
export function serializeProtocolSchema(schema: object): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}

if (import.meta.main) {
  atomicWriteFileSync(PROTOCOL_SCHEMA_PATH, serializeProtocolSchema(buildProtocolSchema()), 0o644);
  console.log(`wrote ${PROTOCOL_SCHEMA_PATH}`);
  atomicWriteFileSync(PROTOCOL_REFERENCE_PATH, buildProtocolReference(), 0o644);
  console.log(`wrote ${PROTOCOL_REFERENCE_PATH}`);
}
