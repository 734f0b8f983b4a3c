/**
 * The pure mappings of the ACP bridge: permission options and answers (an option the agent
 * never offered is a denial, never an allow), the editor's MCP servers in mcp.json's shape
 * (names fitted to Shard's rule, SSE refused), and prompt content.
 */
import { describe, expect, test } from "bun:test";
import { mcpServersConfig } from "../../src/acp/mcp-servers-file.ts";
import { permissionAnswer, permissionOptions } from "../../src/acp/permission-options.ts";
import { shardPrompt } from "../../src/acp/prompt-content.ts";
import type { PermissionRequest } from "../../src/types/permissions.ts";

const bashRequest: PermissionRequest = {
  type: "permission_request",
  request_id: "r1",
  tool_name: "bash",
  input: { command: "git status" },
  prompt: "Run git status?",
  options: ["allow", "allow_always", "deny"],
  choices: [
    { id: "allow_once", label: "Allow once", intent: "allow" },
    { id: "allow_signature", label: "Always allow git status …", intent: "persist" },
    { id: "deny", label: "Deny", intent: "deny" },
  ],
};

describe("permission options", () => {
  test("Shard's choices map one to one, by id, with ACP kinds", () => {
    expect(permissionOptions(bashRequest)).toEqual([
      { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
      { optionId: "allow_signature", name: "Always allow git status …", kind: "allow_always" },
      { optionId: "deny", name: "Deny", kind: "reject_once" },
    ]);
    expect(permissionAnswer(bashRequest, { outcome: "selected", optionId: "allow_signature" })).toEqual({
      choice_id: "allow_signature",
    });
  });

  test("without choices the three decisions are the options", () => {
    const { choices: _, ...plain } = bashRequest;
    const options = permissionOptions(plain);
    expect(options.map((o) => o.kind)).toEqual(["allow_once", "allow_always", "reject_once"]);
    const always = options[1]?.optionId ?? "";
    expect(permissionAnswer(plain, { outcome: "selected", optionId: always })).toEqual({
      decision: "allow_always",
    });
  });

  test("an option never offered, or a cancelled dialog, denies", () => {
    expect(permissionAnswer(bashRequest, { outcome: "selected", optionId: "allow_everything" })).toEqual({
      decision: "deny",
    });
    expect(permissionAnswer(bashRequest, { outcome: "selected", optionId: "decision:allow" })).toEqual({
      decision: "deny",
    });
    expect(permissionAnswer(bashRequest, { outcome: "cancelled" })).toEqual({ decision: "deny" });
  });
});

describe("the editor's MCP servers", () => {
  test("stdio and http servers in mcp.json's shape; names fitted to mcp__<server>__<tool>", () => {
    expect(
      mcpServersConfig([
        {
          name: "my files",
          command: "/bin/fs-server",
          args: ["--root", "/"],
          env: [{ name: "TOKEN", value: "t" }],
        },
        {
          type: "http",
          name: "a__b",
          url: "https://mcp.example.com/mcp",
          headers: [{ name: "X-Key", value: "k" }],
        },
        { name: "my files", command: "/bin/other", args: [], env: [] },
      ]),
    ).toEqual({
      "my-files": { command: "/bin/fs-server", args: ["--root", "/"], env: { TOKEN: "t" } },
      a_b: { url: "https://mcp.example.com/mcp", headers: { "X-Key": "k" } },
      "my-files-2": { command: "/bin/other", args: [], env: {} },
    });
  });

  test("an SSE server is refused with its name", () => {
    expect(() =>
      mcpServersConfig([{ type: "sse", name: "old", url: "https://example.com/sse", headers: [] }]),
    ).toThrow(/old.*SSE/);
  });
});

describe("prompt content", () => {
  test("text, images, resource links and embedded resources become one Shard prompt", () => {
    expect(
      shardPrompt([
        { type: "text", text: "fix this" },
        { type: "resource_link", name: "a.ts", uri: "file:///w/a.ts" },
        { type: "resource", resource: { uri: "file:///w/b.ts", text: "let b = 1;" } },
        { type: "image", data: "aGk=", mimeType: "image/png" },
      ]),
    ).toEqual({
      message: 'fix this\n\n[a.ts](file:///w/a.ts)\n\n<context uri="file:///w/b.ts">\nlet b = 1;\n</context>',
      images: [{ type: "image", data: "aGk=", mime_type: "image/png" }],
    });
  });

  test("an empty prompt and audio are refused", () => {
    expect(() => shardPrompt([{ type: "text", text: "  " }])).toThrow(/empty/);
    expect(() => shardPrompt([{ type: "audio", data: "", mimeType: "audio/wav" }])).toThrow(/audio/);
  });
});
