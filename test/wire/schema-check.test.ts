import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import {
  AGENT_EVENT_SCHEMAS,
  COMMAND_SCHEMAS,
  EVENT_SCHEMAS,
  RESPONSE_SCHEMA,
} from "../../src/types/catalog.ts";
import { COMMAND_ENTRIES } from "../../src/types/command-table.ts";
import { COMPILE_AFTER, SchemaCheck, schemaCheck } from "../../src/wire/schema-check.ts";
import { asAgentEvent, messageGuard } from "../../src/wire/validate.ts";
import { MESSAGE_FIXTURES } from "../types/fixtures.ts";

const AGENT_COMMAND_SCHEMAS = COMMAND_ENTRIES.filter((e) => e.owner === "runtime").map((e) => e.command);
const asAgentCommand = messageGuard(AGENT_COMMAND_SCHEMAS);

const schemaOf = (direction: string, type: string) =>
  type === "response"
    ? RESPONSE_SCHEMA
    : (direction === "command" ? COMMAND_SCHEMAS : EVENT_SCHEMAS).get(type);

describe("a schema check is interpreted while rare, compiled once frequent", () => {
  for (const fixture of MESSAGE_FIXTURES) {
    test(`${fixture.type}: the same verdicts before and after it is compiled`, () => {
      const schema = schemaOf(fixture.direction, fixture.type);
      if (!schema) throw new Error(`no schema for ${fixture.type}`);
      const check = new SchemaCheck(schema);
      const verdicts = new Set<string>();
      const round = () => verdicts.add(`${check.check(fixture.valid)}/${check.check(fixture.broken)}`);
      for (let i = 0; i < COMPILE_AFTER / 2 - 1; i++) round();
      expect(check.compiled).toBe(false);
      round();
      expect(check.compiled).toBe(true);
      round();
      expect([...verdicts]).toEqual(["true/false"]);
      expect(check.firstError(fixture.broken)?.path).toContain(fixture.brokenField.split(".")[0] ?? "");
    });
  }

  test("a rarely checked schema is never compiled", () => {
    const check = new SchemaCheck(Type.Object({ n: Type.Number() }));
    for (let i = 0; i < COMPILE_AFTER - 1; i++) check.check({ n: i });
    expect(check.compiled).toBe(false);
  });

  test("every user of one schema shares its check", () => {
    const schema = Type.Object({ n: Type.Number() });
    expect(schemaCheck(schema)).toBe(schemaCheck(schema));
    expect(schemaCheck(schema)).not.toBe(schemaCheck(Type.Object({ n: Type.Number() })));
  });
});

describe("a message guard dispatches on type to its member's check", () => {
  test("it narrows its members and refuses everything else", () => {
    for (const fixture of MESSAGE_FIXTURES) {
      const command = fixture.direction === "command";
      const inAgentCommands =
        command && AGENT_COMMAND_SCHEMAS.some((s) => s.properties.type?.const === fixture.type);
      const inAgentEvents =
        !command && AGENT_EVENT_SCHEMAS.some((s) => s.properties.type.const === fixture.type);
      expect(asAgentCommand(fixture.valid) === fixture.valid).toBe(inAgentCommands);
      expect(asAgentEvent(fixture.valid) === fixture.valid).toBe(inAgentEvents);
      expect(asAgentCommand(fixture.broken)).toBeUndefined();
      expect(asAgentEvent(fixture.broken)).toBeUndefined();
    }
  });

  test("a non-object or a message without a string type is refused", () => {
    for (const value of [null, 1, "prompt", [], {}, { type: 7 }])
      expect(asAgentCommand(value)).toBeUndefined();
  });

  test("a member without a literal type is a programming error", () => {
    expect(() => messageGuard([Type.Object({ type: Type.String() })])).toThrow("no literal type");
  });
});
