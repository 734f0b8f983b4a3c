/** Mode tool lists name tools exactly or with `*` (src/tools/tool-pattern.ts). */
import { expect, test } from "bun:test";
import { toolAllowed } from "../../src/tools/tool-pattern.ts";

test("exact names, and * for any characters; nothing else is special", () => {
  expect(toolAllowed(["read"], "read")).toBe(true);
  expect(toolAllowed(["read"], "reader")).toBe(false);
  expect(toolAllowed(["mcp__*"], "mcp__github__create_issue")).toBe(true);
  expect(toolAllowed(["mcp__github__*"], "mcp__github__create_issue")).toBe(true);
  expect(toolAllowed(["mcp__github__*"], "mcp__gitlab__create_issue")).toBe(false);
  expect(toolAllowed(["mcp__*__search"], "mcp__docs__search")).toBe(true);
  expect(toolAllowed(["mcp__.*"], "mcp__x")).toBe(false);
  expect(toolAllowed(["*"], "bash")).toBe(true);
  expect(toolAllowed([], "bash")).toBe(false);
});
