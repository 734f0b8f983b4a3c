// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references in config text, deliberately literal.
/**
 * The trust store ($SHARD_HOME/mcp-trust.json) and the project file's loading: an answer counts
 * for one repository and one exact content; a file that cannot be trusted or read trusts
 * nothing and says so; `.mcp.json` is found at the repository's top-level without git.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadProjectMcpConfig } from "../../src/mcp/project-config.ts";
import { projectRoot } from "../../src/mcp/project-root.ts";
import { trustQuestion } from "../../src/mcp/project-trust.ts";
import { McpTrustStore } from "../../src/mcp/trust-store.ts";
import { tempDir } from "../agent/support/agent-process.ts";

function store(): { store: McpTrustStore; path: string } {
  const home = tempDir("home");
  const path = join(home, "mcp-trust.json");
  return { store: new McpTrustStore(path, () => new Date("2026-01-02T03:04:05Z")), path };
}

describe("McpTrustStore", () => {
  test("an answer counts for that repository and that hash only", () => {
    const { store: s, path } = store();
    expect(s.lookup("/r", "aaa")).toEqual({});
    expect(s.record("/r", "aaa", "trusted")).toBeUndefined();
    expect(s.record("/r", "bbb", "denied")).toBeUndefined();
    expect(s.lookup("/r", "aaa")).toEqual({ decision: "trusted" });
    expect(s.lookup("/r", "bbb")).toEqual({ decision: "denied" });
    // A changed file (another hash) and another repository with the same file: not known.
    expect(s.lookup("/r", "ccc")).toEqual({});
    expect(s.lookup("/other", "aaa")).toEqual({});
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({
      "/r": {
        aaa: { decision: "trusted", at: "2026-01-02T03:04:05.000Z" },
        bbb: { decision: "denied", at: "2026-01-02T03:04:05.000Z" },
      },
    });
  });

  test("a corrupt file trusts nothing, says so, and is not overwritten", () => {
    const { store: s, path } = store();
    writeFileSync(path, '{"/r": {"aaa": {"decision": "trusted"', { mode: 0o600 });
    const found = s.lookup("/r", "aaa");
    expect(found.decision).toBeUndefined();
    expect(found.warning).toBe(`${path} is not valid JSON, so no project MCP server is trusted`);
    expect(s.record("/r", "aaa", "trusted")).toEndWith("; this answer is not remembered");
    expect(readFileSync(path, "utf8")).toBe('{"/r": {"aaa": {"decision": "trusted"');
  });

  test("a file of the wrong shape trusts nothing", () => {
    const { store: s, path } = store();
    writeFileSync(path, JSON.stringify({ "/r": { aaa: { decision: "yes", at: "x" } } }), { mode: 0o600 });
    expect(s.lookup("/r", "aaa")).toEqual({
      warning: `${path} does not have the expected shape, so no project MCP server is trusted`,
    });
  });

  test("a file others can write or read is not believed", () => {
    const { store: s, path } = store();
    writeFileSync(path, JSON.stringify({ "/r": { aaa: { decision: "trusted", at: "x" } } }));
    chmodSync(path, 0o666);
    const found = s.lookup("/r", "aaa");
    expect(found.decision).toBeUndefined();
    expect(found.warning).toContain("group or others can access it");
  });
});

describe("the project's .mcp.json", () => {
  test("is found at the repository's top-level from a folder inside it; outside a repository, in the cwd", () => {
    const root = realpathSync(tempDir("repo"));
    Bun.spawnSync(["git", "init", "-q", root]);
    const deep = join(root, "a", "b");
    mkdirSync(deep, { recursive: true });
    expect(projectRoot(deep)).toBe(root);
    const plain = realpathSync(tempDir("plain"));
    expect(projectRoot(plain)).toBe(plain);
  });

  test("its hash is of the exact bytes: one more space is another file", () => {
    const root = realpathSync(tempDir("repo"));
    const text = JSON.stringify({ mcpServers: { s: { command: "x" } } });
    writeFileSync(join(root, ".mcp.json"), text);
    const first = loadProjectMcpConfig(root, {}).config;
    writeFileSync(join(root, ".mcp.json"), `${text} `);
    const second = loadProjectMcpConfig(root, {}).config;
    expect(first?.servers.map((s) => s.name)).toEqual(["s"]);
    expect(first?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(second?.sha256).not.toBe(first?.sha256);
  });

  test("a FIFO planted as .mcp.json is refused without blocking; invalid JSON is one warning", () => {
    const root = realpathSync(tempDir("repo"));
    Bun.spawnSync(["mkfifo", join(root, ".mcp.json")]);
    expect(loadProjectMcpConfig(root, {})).toEqual({
      warnings: [`${join(root, ".mcp.json")}: it is not a regular file; its MCP servers are not used`],
    });
    const other = realpathSync(tempDir("repo"));
    writeFileSync(join(other, ".mcp.json"), "{nope");
    expect(loadProjectMcpConfig(other, {})).toEqual({
      warnings: [`${join(other, ".mcp.json")} is not valid JSON; its MCP servers are not used`],
    });
  });
});

describe("the trust question", () => {
  test("names the URL, the header names and the variables read, never a header or env value", () => {
    const root = realpathSync(tempDir("repo"));
    const file = join(root, ".mcp.json");
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          docs: { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer ${DOCS_TOKEN}" } },
          local: { command: "node", args: ["server.js", "it's"], env: { MODE: "fast-mode-value" } },
        },
      }),
    );
    const config = loadProjectMcpConfig(root, { DOCS_TOKEN: "tok-123-secret" }).config;
    if (config === undefined) throw new Error("no config");
    const ask = trustQuestion(config);
    const all = JSON.stringify(ask);
    expect(all).not.toContain("tok-123-secret");
    expect(all).not.toContain("Bearer");
    expect(all).not.toContain("fast-mode-value");
    expect(ask.prompt).toBe(
      `Trust the MCP servers of ${file}? It would run: docs: https://mcp.example.com/mcp; local: node server.js 'it'\\''s'`,
    );
    expect(ask.input).toEqual({
      file,
      servers: [
        { name: "docs", url: "https://mcp.example.com/mcp", header_names: ["Authorization"] },
        { name: "local", command: "node", args: ["server.js", "it's"], env_names: ["MODE"] },
      ],
    });
    expect(ask.details).toContainEqual({
      label: "docs: reads your environment variables",
      value: "DOCS_TOKEN",
      format: "text",
    });
  });
});
