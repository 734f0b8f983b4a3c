/**
 * Renders docs/protocol.md, the wire protocol reference, from the command table, the event
 * catalog and their TypeBox schemas: every message, its fields, every command's result and
 * every error code, with Shard's additions marked. `bun run schema` writes it next to
 * docs/protocol.schema.json; a test fails when the committed file is stale.
 */
import { join } from "node:path";
import { KindGuard, type TSchema } from "@sinclair/typebox";
import { AGENT_EVENT_SCHEMAS, DAEMON_EVENT_SCHEMAS, messageType } from "../src/types/catalog.ts";
import { COMMAND_ENTRIES, type CommandOwner } from "../src/types/command-table.ts";
import { PROTOCOL_VERSION } from "../src/types/envelope.ts";
import { ERROR_CODE_MEANINGS, ERROR_CODES } from "../src/types/errors.ts";
import { ADDED_EVENT_FIELD, ADDED_EVENT_TYPES, ADDED_FIELDS } from "../src/types/protocol-additions.ts";
import { ResponseSchema } from "../src/types/response.ts";
import { conceptSections } from "./protocol-concepts.ts";

export const PROTOCOL_REFERENCE_PATH = join(import.meta.dir, "..", "docs", "protocol.md");

const ADDITION = "**(Shard addition)**";

/** Section numbers: §1–§7 are the concepts (./protocol-concepts.ts); code cites all of them. */
const ERRORS_SECTION = 8;
const RESPONSE_SECTION = 9;
const COMMANDS_SECTION = 10;
const EVENTS_SECTION = 11;
const TYPES_SECTION = 12;

/** Numbered §10.1, §10.2, … in this order: a new owner goes last, so cited numbers never move. */
const OWNER_ORDER: readonly CommandOwner[] = [
  "runtime",
  "registry",
  "workspaces",
  "subagents",
  "sessions",
  "auth",
  "providers",
  "changes",
  "usage",
];

const OWNERS: Record<CommandOwner, string> = {
  runtime:
    "Per-agent commands, answered by the agent's runtime. On a daemon connection they carry the routing `agent_id` of an attached agent; on a direct `shard agent` connection they carry none.",
  registry: "The daemon's registry of durable agents.",
  sessions: "Durable sessions, answered by the daemon.",
  workspaces: "Git worktree workspaces, answered by the daemon.",
  subagents: "Subagent jobs a parent agent launches, answered by the daemon (docs/subagents.md).",
  auth: "Browser enrollment, answered on the daemon's unix socket only (docs/auth.md).",
  providers: "Model provider status, answered by the daemon.",
  changes: "What an agent changed in its working tree, answered by the daemon (docs/web.md, Changes).",
  usage: "The cost ledger: what the agents spent, answered by the daemon (docs/usage.md).",
};

/** Renders schemas as compact TypeScript-like type expressions; named schemas become links. */
class TypeWriter {
  /** Named schemas met while rendering, for the Types section. */
  readonly named = new Map<string, TSchema>();

  expression(schema: TSchema): string {
    if (typeof schema.$id === "string") {
      this.name(schema);
      return `[${schema.$id}](#${anchor(schema.$id)})`;
    }
    return this.inline(schema);
  }

  /** The schema's own shape, even when it is named. */
  inline(schema: TSchema): string {
    if (KindGuard.IsLiteral(schema)) return JSON.stringify(schema.const);
    if (KindGuard.IsString(schema)) return "string";
    if (KindGuard.IsInteger(schema)) return "integer";
    if (KindGuard.IsNumber(schema)) return "number";
    if (KindGuard.IsBoolean(schema)) return "boolean";
    if (KindGuard.IsNull(schema)) return "null";
    if (KindGuard.IsUnknown(schema) || KindGuard.IsAny(schema)) return "unknown";
    if (KindGuard.IsArray(schema)) return `${this.wrapped(schema.items)}[]`;
    if (KindGuard.IsTuple(schema))
      return `[${(schema.items ?? []).map((s) => this.expression(s)).join(", ")}]`;
    if (KindGuard.IsUnion(schema)) return schema.anyOf.map((s) => this.expression(s)).join(" \\| ");
    if (KindGuard.IsRecord(schema)) {
      const [value] = Object.values(schema.patternProperties);
      return `Record<string, ${value ? this.expression(value) : "unknown"}>`;
    }
    if (KindGuard.IsObject(schema)) {
      const fields = Object.entries(schema.properties).map(
        ([key, value]) => `${key}${isRequired(schema, key) ? "" : "?"}: ${this.expression(value)}`,
      );
      return fields.length === 0 ? "{}" : `{ ${fields.join(", ")} }`;
    }
    if (KindGuard.IsRef(schema) || KindGuard.IsThis(schema))
      return `[${schema.$ref}](#${anchor(schema.$ref)})`;
    throw new Error(
      `protocol reference: no rendering for the schema ${JSON.stringify(schema).slice(0, 120)}`,
    );
  }

  private wrapped(schema: TSchema): string {
    const text = this.expression(schema);
    return KindGuard.IsUnion(schema) && typeof schema.$id !== "string" ? `(${text})` : text;
  }

  private name(schema: TSchema): void {
    if (typeof schema.$id === "string" && !this.named.has(schema.$id)) this.named.set(schema.$id, schema);
  }
}

function isRequired(schema: TSchema, key: string): boolean {
  return Array.isArray(schema.required) && schema.required.includes(key);
}

/** GitHub's heading anchor for a heading that is one code span or word. */
function anchor(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9_\- ]/g, "")
    .replace(/ /g, "-");
}

function fieldTable(writer: TypeWriter, schema: TSchema, added: readonly string[] = []): string[] {
  if (!KindGuard.IsObject(schema)) return [`Type: ${writer.inline(schema)}`, ""];
  const entries = Object.entries(schema.properties);
  if (entries.length === 0) return ["No fields.", ""];
  const lines = ["| Field | Type | Required | Notes |", "| --- | --- | --- | --- |"];
  for (const [key, value] of entries) {
    const notes = [added.includes(key) ? ADDITION : "", description(value)].filter(Boolean).join(" ");
    lines.push(
      `| \`${key}\` | ${writer.expression(value)} | ${isRequired(schema, key) ? "yes" : "no"} | ${notes} |`,
    );
  }
  lines.push("");
  return lines;
}

function description(schema: TSchema): string {
  return typeof schema.description === "string" ? schema.description.replace(/\n/g, " ") : "";
}

function commandSections(writer: TypeWriter): string[] {
  const lines: string[] = [`## ${COMMANDS_SECTION}. Commands`, ""];
  const present = new Set(COMMAND_ENTRIES.map((e) => e.owner));
  for (const owner of present)
    if (!OWNER_ORDER.includes(owner))
      throw new Error(`protocol reference: owner "${owner}" has no section number`);
  const owners = OWNER_ORDER.filter((owner) => present.has(owner));
  for (const [index, owner] of owners.entries()) {
    lines.push(`### ${COMMANDS_SECTION}.${index + 1} Answered by: ${owner}`, "", OWNERS[owner], "");
    for (const entry of COMMAND_ENTRIES.filter((e) => e.owner === owner)) {
      lines.push(`#### \`${entry.type}\``, "");
      if (entry.addition) lines.push(`${ADDITION} See docs/protocol-additions.md.`, "");
      const about = description(entry.command);
      if (about) lines.push(about, "");
      lines.push(...fieldTable(writer, entry.command, ADDED_FIELDS[entry.type]));
      const result = entry.result;
      const resultName = typeof result.$id === "string" ? result.$id : "(unnamed)";
      if (KindGuard.IsObject(result) && Object.keys(result.properties).length === 0) {
        lines.push(`Result \`${resultName}\`: empty; the response carries no \`data\`.`, "");
      } else {
        lines.push(`Result [\`${resultName}\`](#${anchor(resultName)}) in \`response.data\`:`, "");
        lines.push(...fieldTable(writer, result));
      }
      writer.named.set(resultName, result);
    }
  }
  return lines;
}

function eventSections(writer: TypeWriter): string[] {
  const lines: string[] = [`## ${EVENTS_SECTION}. Events`, ""];
  const groups: [string, string, readonly TSchema[]][] = [
    [
      "Agent events",
      "Emitted by an agent's runtime; the daemon forwards them tagged with `agent_id`.",
      AGENT_EVENT_SCHEMAS,
    ],
    [
      "Daemon events",
      "Authored by the daemon and broadcast to its clients; an `agent_id` here is payload.",
      DAEMON_EVENT_SCHEMAS,
    ],
  ];
  for (const [index, [title, about, schemas]] of groups.entries()) {
    lines.push(`### ${EVENTS_SECTION}.${index + 1} ${title}`, "", about, "");
    for (const schema of schemas) {
      if (!KindGuard.IsObject(schema)) continue;
      const type = messageType(schema);
      lines.push(`#### \`${type}\``, "");
      if (ADDED_EVENT_TYPES.has(type)) lines.push(`${ADDITION} See docs/protocol-additions.md.`, "");
      const about = description(schema);
      if (about) lines.push(about, "");
      lines.push(...fieldTable(writer, schema, [ADDED_EVENT_FIELD, ...(ADDED_FIELDS[type] ?? [])]));
    }
  }
  return lines;
}

/** Every named type met so far, and those they name in turn, alphabetically. */
function typeSections(writer: TypeWriter, skip: ReadonlySet<string>): string[] {
  const blocks = new Map<string, string[]>();
  const done = new Set<string>();
  for (;;) {
    const next = [...writer.named.keys()].filter((name) => !done.has(name) && !skip.has(name)).sort();
    if (next.length === 0) break;
    for (const name of next) done.add(name);
    // Rendering a type may name more types; the loop renders those in a later pass.
    for (const name of next) {
      const schema = writer.named.get(name);
      if (!schema) continue;
      const section = [`### ${name}`, ""];
      const about = description(schema);
      if (about) section.push(about, "");
      section.push(...fieldTable(writer, schema));
      blocks.set(name, section);
    }
  }
  const lines: string[] = [`## ${TYPES_SECTION}. Types`, ""];
  for (const name of [...blocks.keys()].sort()) lines.push(...(blocks.get(name) ?? []));
  return lines;
}

export function buildProtocolReference(): string {
  const writer = new TypeWriter();
  const messageNames = new Set<string>();
  for (const entry of COMMAND_ENTRIES)
    if (typeof entry.command.$id === "string") messageNames.add(entry.command.$id);
  for (const schema of [...AGENT_EVENT_SCHEMAS, ...DAEMON_EVENT_SCHEMAS]) {
    if (typeof schema.$id === "string") messageNames.add(schema.$id);
  }
  const commands = commandSections(writer);
  const events = eventSections(writer);
  const response = [`## ${RESPONSE_SECTION}. The response`, "", ...fieldTable(writer, ResponseSchema)];
  const lines = [
    "# Shard wire protocol reference",
    "",
    "<!-- Generated by `bun run schema` (scripts/protocol-reference.ts) from src/types. Do not edit: CI fails when it is stale. -->",
    "",
    `Protocol version \`${PROTOCOL_VERSION}\`. Every message is one JSON object: a line of JSONL or a WebSocket text frame ([§1](#1-transports-and-framing)). Clients send commands; the server sends events and answers every command with one \`response\` that echoes its \`command\` and, when it had one, its \`id\`.`,
    "",
    "- A successful `response` carries the command's result in `data`; a command whose result is empty answers without `data`.",
    "- A failed `response` carries `error: {code, message, data?}` with a code from the table below; the connection stays open.",
    `- Events carry \`seq\` ${ADDITION}: a per-agent number that grows by one with each event of that agent, so a client that attaches gets \`sync\` and then exactly the events after it.`,
    `- Messages and fields marked ${ADDITION} are Shard's additions to the protocol; docs/protocol-additions.md gives the reasons and the exact rules. docs/protocol.schema.json is the same contract as JSON Schema, for clients in other languages.`,
    "",
    ...conceptSections(),
    `## ${ERRORS_SECTION}. Error codes`,
    "",
    "| Code | Meaning |",
    "| --- | --- |",
    ...ERROR_CODES.map((code) => `| \`${code}\` | ${ERROR_CODE_MEANINGS[code]} |`),
    "",
    ...response,
    ...commands,
    ...events,
    ...typeSections(writer, messageNames),
  ];
  return `${lines.join("\n").trimEnd()}\n`;
}
