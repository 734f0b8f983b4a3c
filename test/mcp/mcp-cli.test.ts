/**
 * `shard mcp list` and `shard mcp test <name>` (docs/mcp.md) against the real
 * server-everything: list names each server and its transport but never an env or header
 * value; test starts the server (in the sandbox, as an agent would) and lists its tools, a
 * server that cannot start is one line and exit 1, an unknown name a usage error (exit 2).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../agent/support/agent-process.ts";
import { shard } from "../cli/support/shard-cli.ts";
import { EVERYTHING, everythingStdio, writeMcpConfig } from "./support.ts";

setDefaultTimeout(60_000);

const SECRET = "hush-hush-5d0b7a";
const HEADER_SECRET = "Bearer hdr-77e1c9a0";

function homeWith(servers: Record<string, unknown>): Record<string, string> {
  const home = tempDir("home");
  writeMcpConfig(home, servers);
  return { HOME: home, SHARD_HOME: home };
}

const servers = {
  everything: everythingStdio(`shard-mcp-cli-${process.pid}`, { env: { MY_TOKEN: SECRET } }),
  docs: { url: "http://127.0.0.1:9/mcp", headers: { Authorization: HEADER_SECRET } },
  leaky: {
    command: process.execPath,
    args: ["-e", "console.error('token=' + process.env.MY_TOKEN); process.exit(1)"],
    env: { MY_TOKEN: SECRET },
  },
  bad__name: { command: "x" },
};

describe("shard mcp list", () => {
  test("each server with its transport and the file's problems; no secret", async () => {
    const res = await shard(["mcp", "list"], homeWith(servers));
    expect(res.code).toBe(0);
    const lines = res.stdout.split("\n");
    expect(lines).toContain(
      `everything  stdio  ${process.execPath} ${EVERYTHING} stdio shard-mcp-cli-${process.pid}  env: MY_TOKEN`,
    );
    expect(lines).toContain("docs  http  http://127.0.0.1:9/mcp  headers: Authorization");
    expect(res.stdout).toMatch(/problem: .*mcp\.json: server "bad__name": the name must be/);
    expect(res.stdout + res.stderr).not.toContain(SECRET);
    expect(res.stdout + res.stderr).not.toContain("hdr-77e1c9a0");
  });

  test("--json", async () => {
    const env = homeWith(servers);
    const res = await shard(["mcp", "list", "--json"], env);
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out.config).toBe(join(env.SHARD_HOME ?? "", "mcp.json"));
    expect(out.servers).toContainEqual({
      name: "docs",
      transport: "http",
      url: "http://127.0.0.1:9/mcp",
      headers: ["Authorization"],
    });
    expect(out.servers.find((s: { name: string }) => s.name === "everything")).toMatchObject({
      transport: "stdio",
      command: process.execPath,
      env: ["MY_TOKEN"],
    });
    expect(out.problems).toHaveLength(1);
    expect(res.stdout).not.toContain(SECRET);
  });

  test("no file: says so", async () => {
    const home = tempDir("home");
    const res = await shard(["mcp", "list"], { HOME: home, SHARD_HOME: home });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`no MCP servers: ${join(home, "mcp.json")} has none\n`);
  });

  test("a file that is not JSON is a problem", async () => {
    const home = tempDir("home");
    writeFileSync(join(home, "mcp.json"), `{"mcpServers": {"x": "${SECRET}`);
    const res = await shard(["mcp", "list"], { HOME: home, SHARD_HOME: home });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("is not valid JSON; no MCP servers");
    expect(res.stdout).not.toContain(SECRET);
  });
});

describe("shard mcp test", () => {
  test("starts the server in the sandbox and lists its tools", async () => {
    const res = await shard(["mcp", "test", "everything"], homeWith(servers));
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    const [head, ...tools] = res.stdout.trimEnd().split("\n");
    expect(head).toMatch(/^everything: ready \(stdio, sandbox workspace-write\), \d+ tools$/);
    expect(tools).toContain("  echo  Echoes back the input string");
    expect(head).toContain(`${tools.length} tools`);
  });

  test("--json lists name and description of each tool", async () => {
    const res = await shard(["mcp", "test", "everything", "--json"], homeWith(servers));
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out).toMatchObject({ name: "everything", state: "ready", transport: "stdio" });
    expect(out.tools).toContainEqual({ name: "echo", description: "Echoes back the input string" });
  });

  test("a server that cannot start: one redacted line, exit 1", async () => {
    const res = await shard(["mcp", "test", "leaky"], homeWith(servers));
    expect(res.code).toBe(1);
    expect(res.stdout).toBe("");
    expect(res.stderr).toMatch(
      /^shard mcp test: MCP server "leaky" could not start: .*token=\[redacted\]\n$/,
    );
    expect(res.stderr).not.toContain(SECRET);
  });

  test("an HTTP server that does not answer: exit 1, --json says failed", async () => {
    const res = await shard(["mcp", "test", "docs", "--json"], homeWith(servers));
    expect(res.code).toBe(1);
    const out = JSON.parse(res.stdout);
    expect(out).toMatchObject({ name: "docs", state: "failed" });
    expect(out.error).toContain('MCP server "docs" could not start');
    expect(res.stdout + res.stderr).not.toContain("hdr-77e1c9a0");
  });

  test("an unknown name is a usage error naming the configured servers", async () => {
    const res = await shard(["mcp", "test", "nope"], homeWith(servers));
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('shard mcp: no MCP server "nope" (configured: everything, docs, leaky)');
    const none = await shard(["mcp", "bogus"], homeWith(servers));
    expect(none.code).toBe(2);
  });
});
