/**
 * Grants for MCP tools (docs/mcp.md): "always allow this tool" covers any arguments of that
 * one tool; "always allow this server" covers every tool of that server, and nothing of another
 * server, of a server whose name merely starts the same, or any built-in tool (negative).
 */
import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import type { AnyTool } from "../../src/contracts/tool.ts";
import { bashTool, check, recordingAsker } from "./fixtures.ts";
import { deny, useGrantProjects } from "./grant-fixtures.ts";

const project = useGrantProjects();

function mcpTool(server: string, tool: string): AnyTool {
  return {
    name: `mcp__${server}__${tool}`,
    description: tool,
    parameters: Type.Object({}, { additionalProperties: true }),
    isReadOnly: false,
    mcp: { server, tool },
    execute: async () => ({ content: { kind: "text", text: "" }, is_error: false }),
  };
}

const choose = (choice_id: string) => ({ kind: "choice", choice_id }) as const;

describe("MCP grants", () => {
  test("the question offers per-tool and per-server grants; per tool covers any arguments of that tool only", async () => {
    const { proj, restart } = project();
    const search = mcpTool("docs", "search");
    const asker = recordingAsker(choose("allow_always_mcp_tool"));
    expect((await restart().decide(check(search, { q: "a" }, proj), asker)).allowed).toBe(true);
    expect(asker.asks[0]?.choices?.map((c) => c.id)).toEqual([
      "allow_once",
      "allow_always_exact",
      "allow_always_mcp_tool",
      "allow_always_mcp_server",
      "deny",
    ]);
    expect(asker.asks[0]?.choices?.find((c) => c.id === "allow_always_mcp_tool")?.label).toBe(
      "Always allow search of docs, with any arguments",
    );

    const later = recordingAsker(deny, deny);
    expect(await restart().decide(check(search, { q: "other" }, proj), later)).toMatchObject({
      allowed: true,
      source: "grant",
    });
    expect(later.asks).toHaveLength(0);
    // Another tool of the same server still asks.
    expect((await restart().decide(check(mcpTool("docs", "delete"), {}, proj), later)).allowed).toBe(false);
    expect(later.asks).toHaveLength(1);
  });

  test("per server covers its tools, new ones too, and nothing else (negative)", async () => {
    const { proj, restart } = project();
    const asker = recordingAsker(choose("allow_always_mcp_server"));
    expect((await restart().decide(check(mcpTool("gh", "list"), {}, proj), asker)).allowed).toBe(true);

    const none = recordingAsker();
    expect(await restart().decide(check(mcpTool("gh", "added_later"), { x: 1 }, proj), none)).toMatchObject({
      allowed: true,
      source: "grant",
    });
    for (const other of [mcpTool("gh-enterprise", "list"), mcpTool("gh_x", "list"), bashTool]) {
      const asked = recordingAsker(deny);
      const args = other === bashTool ? { command: "ls" } : {};
      expect((await restart().decide(check(other, args, proj), asked)).allowed).toBe(false);
      expect(asked.asks).toHaveLength(1);
    }
  });

  test("an MCP choice on a question that did not offer it is refused (negative)", async () => {
    const { proj, restart } = project();
    const asker = recordingAsker(choose("allow_always_mcp_server"));
    const decision = await restart().decide(check(bashTool, { command: "ls" }, proj), asker);
    expect(decision.allowed).toBe(false);
  });

  test("a hand-written rule naming a built-in tool or a malformed server grants nothing (negative)", async () => {
    const { proj, restart, writeGrantFile } = project();
    writeGrantFile({
      version: 1,
      cwd: proj,
      rules: [
        { kind: "mcp_tool", tool: "bash" },
        { kind: "mcp_server", server: "" },
        { kind: "mcp_server", server: "a__b" },
      ],
    });
    const asked = recordingAsker(deny, deny);
    expect((await restart().decide(check(bashTool, { command: "ls" }, proj), asked)).allowed).toBe(false);
    expect((await restart().decide(check(mcpTool("a", "b__c"), {}, proj), asked)).allowed).toBe(false);
    expect(asked.asks).toHaveLength(2);
  });
});
