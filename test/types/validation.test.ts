import { describe, expect, test } from "bun:test";
import type { TObject } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { type AgentEvent, COMMAND_SCHEMAS, EVENT_SCHEMAS, RESPONSE_SCHEMA } from "../../src/types/catalog.ts";
import type { AgentCommand } from "../../src/types/command-table.ts";
import { COMMAND_ENTRIES } from "../../src/types/command-table.ts";
import { MESSAGE_FIXTURES, type MessageFixture } from "./fixtures.ts";

function schemaFor(fixture: MessageFixture): TObject {
  const schema =
    fixture.direction === "command"
      ? COMMAND_SCHEMAS.get(fixture.type)
      : fixture.direction === "event"
        ? EVENT_SCHEMAS.get(fixture.type)
        : RESPONSE_SCHEMA;
  if (schema === undefined) throw new Error(`no ${fixture.direction} schema for ${fixture.type}`);
  return schema;
}

const compiled = new Map<TObject, ReturnType<typeof TypeCompiler.Compile<TObject>>>();
function check(schema: TObject) {
  let checker = compiled.get(schema);
  if (checker === undefined) {
    checker = TypeCompiler.Compile(schema);
    compiled.set(schema, checker);
  }
  return checker;
}

function errorPaths(schema: TObject, value: unknown): string[] {
  return [...check(schema).Errors(value)].map((error) => error.path);
}

function fixtureTypes(direction: MessageFixture["direction"]): string[] {
  return MESSAGE_FIXTURES.filter((f) => f.direction === direction)
    .map((f) => f.type)
    .sort();
}

describe("fixtures cover the whole catalog", () => {
  test("exactly one command fixture per command schema", () => {
    expect(fixtureTypes("command")).toEqual([...COMMAND_SCHEMAS.keys()].sort());
  });

  test("exactly one event fixture per event schema", () => {
    expect(fixtureTypes("event")).toEqual([...EVENT_SCHEMAS.keys()].sort());
  });

  test("exactly one response fixture", () => {
    expect(fixtureTypes("response")).toEqual(["response"]);
  });

  test("each broken example differs from its valid one only in the named field", () => {
    for (const fixture of MESSAGE_FIXTURES) {
      const valid = { ...fixture.valid } as Record<string, unknown>;
      const broken = { ...fixture.broken } as Record<string, unknown>;
      expect(JSON.stringify(valid[fixture.brokenField])).not.toBe(
        JSON.stringify(broken[fixture.brokenField]),
      );
      delete valid[fixture.brokenField];
      delete broken[fixture.brokenField];
      expect(broken).toEqual(valid);
    }
  });
});

describe.each(MESSAGE_FIXTURES)("$direction $type", (fixture) => {
  const schema = schemaFor(fixture);

  test("valid example passes and survives a JSON round trip", () => {
    expect(errorPaths(schema, fixture.valid)).toEqual([]);
    expect(JSON.parse(JSON.stringify(fixture.valid))).toEqual(fixture.valid);
  });

  test(`broken example fails on ${fixture.brokenField}`, () => {
    const paths = errorPaths(schema, fixture.broken);
    expect(paths.length).toBeGreaterThan(0);
    const field = `/${fixture.brokenField}`;
    expect(paths.filter((path) => path !== field && !path.startsWith(`${field}/`))).toEqual([]);
  });
});

const PER_AGENT_COMMANDS = new Set(COMMAND_ENTRIES.filter((e) => e.owner === "runtime").map((e) => e.type));
const ORCHESTRATOR_COMMANDS: ReadonlySet<string> = new Set(
  COMMAND_ENTRIES.filter((e) => e.owner !== "runtime").map((e) => e.type),
);

describe("catalog", () => {
  test("per-agent and orchestrator commands partition the command map", () => {
    const all = [...PER_AGENT_COMMANDS, ...ORCHESTRATOR_COMMANDS].sort();
    expect(all).toEqual([...COMMAND_SCHEMAS.keys()].sort());
    expect(new Set(all).size).toBe(all.length);
  });

  test("every message schema is keyed by its own literal type and named with $id", () => {
    for (const [type, schema] of [
      ...COMMAND_SCHEMAS,
      ...EVENT_SCHEMAS,
      ["response", RESPONSE_SCHEMA] as const,
    ]) {
      expect(schema.properties.type?.const).toBe(type);
      expect(typeof schema.$id).toBe("string");
      expect(schema.required).toContain("type");
    }
  });

  test("every command accepts a correlation id; orchestrator commands require one", () => {
    for (const [type, schema] of COMMAND_SCHEMAS) {
      expect(schema.properties.id).toBeDefined();
      const fixture = MESSAGE_FIXTURES.find((f) => f.direction === "command" && f.type === type)!;
      const withoutId = { ...fixture.valid } as Record<string, unknown>;
      delete withoutId.id;
      const required =
        ORCHESTRATOR_COMMANDS.has(type) ||
        type.endsWith("_reasoning_level") ||
        type === "list_reasoning_levels" ||
        // Its id is the daemon link request it answers (protocol-additions §27).
        type === "daemon_response";
      expect({ type, passes: check(schema).Check(withoutId) }).toEqual({ type, passes: !required });
      expect(errorPaths(schema, { ...fixture.valid, id: 5 })).toContain("/id");
    }
  });

  test("per-agent commands accept a routing agent_id and work without one (direct connection)", () => {
    for (const type of PER_AGENT_COMMANDS) {
      const schema = COMMAND_SCHEMAS.get(type)!;
      const fixture = MESSAGE_FIXTURES.find((f) => f.direction === "command" && f.type === type)!;
      const direct = { ...fixture.valid } as Record<string, unknown>;
      delete direct.agent_id;
      expect(check(schema).Check(direct)).toBe(true);
      expect(check(schema).Check({ ...direct, agent_id: "agent-9" })).toBe(true);
    }
  });

  test("every event takes an optional numeric seq", () => {
    for (const [type, schema] of EVENT_SCHEMAS) {
      const fixture = MESSAGE_FIXTURES.find((f) => f.direction === "event" && f.type === type)!;
      const unsequenced = { ...fixture.valid } as Record<string, unknown>;
      delete unsequenced.seq;
      expect(check(schema).Check(unsequenced)).toBe(true);
      expect(check(schema).Check({ ...unsequenced, seq: 41 })).toBe(true);
      expect(errorPaths(schema, { ...unsequenced, seq: "41" })).toEqual(["/seq"]);
    }
  });

  test("messages stay open to additive fields", () => {
    for (const fixture of MESSAGE_FIXTURES) {
      expect(check(schemaFor(fixture)).Check({ ...fixture.valid, x_future_field: { any: 1 } })).toBe(true);
    }
  });

  test("a response error must use a registered code", () => {
    const error = { code: "NOT_FOUND", message: "no such mode" };
    const response = { type: "response", id: "c3", command: "set_mode", success: false, error };
    expect(check(RESPONSE_SCHEMA).Check(response)).toBe(true);
    expect(errorPaths(RESPONSE_SCHEMA, { ...response, error: { ...error, code: "ENOENT" } })).toContain(
      "/error/code",
    );
  });

  test("AgentCommand and AgentEvent narrow by type", () => {
    const describeCommand = (command: AgentCommand): string => {
      switch (command.type) {
        case "prompt":
          return `prompt:${command.message}`;
        case "set_model":
          return `set_model:${command.model}`;
        default:
          return command.type;
      }
    };
    const describeEvent = (event: AgentEvent): string =>
      event.type === "tool_result" ? `tool_result:${event.tool_call_id}:${event.is_error}` : event.type;
    const prompt = MESSAGE_FIXTURES.find((f) => f.type === "prompt")!.valid as AgentCommand;
    const result = MESSAGE_FIXTURES.find((f) => f.type === "tool_result")!.valid as AgentEvent;
    expect(describeCommand(prompt)).toBe("prompt:read the config");
    expect(describeEvent(result)).toBe("tool_result:tc-1:false");
  });
});
