/**
 * Shard's MCP client as the conformance suite's client under test
 * (`@modelcontextprotocol/conformance client --command "bun shard-client.ts"`): the suite starts
 * a scenario server and appends its URL. This connects through Shard's own McpConnection (the
 * code agents use), lists the tools, and calls each one the scenario expects.
 */
import { McpConnection } from "../../../src/mcp/mcp-connection.ts";
import { DEFAULT_MCP_TIMEOUTS } from "../../../src/mcp/mcp-timeouts.ts";

/** Arguments for the tools the client scenarios serve. */
const ARGUMENTS: Record<string, Record<string, unknown>> = { add_numbers: { a: 2, b: 3 } };

const url = process.argv.at(-1) ?? "";
const errors: string[] = [];
const connection = new McpConnection({
  server: { name: "conformance", url, headers: {}, secrets: [] },
  context: { cwd: process.cwd(), env: {} },
  timeouts: DEFAULT_MCP_TIMEOUTS,
  clientVersion: "conformance",
  onError: (message) => errors.push(message),
});
await connection.prepare();
const signal = new AbortController().signal;
for (const tool of connection.tools()) {
  const server = tool.mcp?.tool ?? "";
  const result = await tool.execute(ARGUMENTS[server] ?? {}, {
    cwd: process.cwd(),
    signal,
    toolCallId: `conformance-${server}`,
    askUser: async () => null,
  });
  process.stdout.write(`${tool.name}: ${JSON.stringify(result.content)}\n`);
}
await connection.close();
for (const e of errors) process.stderr.write(`${e}\n`);
process.exit(errors.length === 0 ? 0 : 1);
