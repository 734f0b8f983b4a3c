/**
 * A server's tool as one of ours: `mcp__<server>__<tool>`, the server's JSON Schema as its
 * parameters, never read-only (a server's `readOnlyHint` is its own claim about itself, so every
 * call goes through the permission gate and plan mode refuses it).
 */
import { Kind, Type, TypeRegistry } from "@sinclair/typebox";
import type { AnyTool, ToolContext, ToolResult } from "../contracts/tool.ts";
import { isRecord } from "../support/is-record.ts";

/**
 * The parameters' TypeBox kind: the runner's Value.Check only asks for an object of arguments;
 * the server validates them against its schema and answers a mismatch with an error result.
 */
const MCP_INPUT_KIND = "McpInputSchema";
if (!TypeRegistry.Has(MCP_INPUT_KIND)) TypeRegistry.Set(MCP_INPUT_KIND, (_schema, value) => isRecord(value));

/** What providers accept as a tool name (OpenAI's limit is the strictest: 64). */
const PROVIDER_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_DESCRIPTION_CHARS = 4000;

export interface ListedTool {
  name: string;
  description?: string | undefined;
  title?: string | undefined;
  inputSchema: Record<string, unknown>;
}

/** Calls a tool of one server (mcp-connection.ts). */
export interface McpCaller {
  readonly server: string;
  call(tool: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
}

export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/** The agent's tool for a listed one, or a reason it cannot be offered (a name no provider takes). */
export function toAgentTool(listed: ListedTool, caller: McpCaller): AnyTool | { refused: string } {
  const name = mcpToolName(caller.server, listed.name);
  if (!PROVIDER_TOOL_NAME.test(name))
    return {
      refused: `MCP server "${caller.server}": tool ${JSON.stringify(listed.name.slice(0, 80))} is left out: "${name.slice(0, 80)}" is not a valid tool name (letters, digits, "_", "-", at most 64)`,
    };
  const { $schema: _dialect, ...schema } = listed.inputSchema;
  const description = (
    listed.description ??
    listed.title ??
    `Tool ${listed.name} of MCP server ${caller.server}`
  ).slice(0, MAX_DESCRIPTION_CHARS);
  return {
    name,
    description,
    parameters: Type.Unsafe<Record<string, unknown>>({ type: "object", ...schema, [Kind]: MCP_INPUT_KIND }),
    isReadOnly: false,
    mcp: { server: caller.server, tool: listed.name },
    execute: (args: Record<string, unknown>, ctx: ToolContext) => caller.call(listed.name, args, ctx),
  };
}
