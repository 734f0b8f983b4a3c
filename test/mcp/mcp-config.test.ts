// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references in config text, deliberately literal.
/**
 * $SHARD_HOME/mcp.json (src/mcp/mcp-config.ts): a bad entry is a warning naming the server and
 * the field, and only that server is skipped; `${VAR}` references expand from the runtime's
 * environment; no warning ever quotes a value from the file's env or headers.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expandVars } from "../../src/mcp/expand-vars.ts";
import { loadMcpConfig, parseMcpConfig } from "../../src/mcp/mcp-config.ts";
import { loadMcpTimeouts } from "../../src/mcp/mcp-timeouts.ts";
import { redactor } from "../../src/mcp/redact.ts";
import { makeTempDir } from "../support/temp-dirs.ts";

const SECRET = "sk-live-0123456789abcdef";
const env = { GITHUB_TOKEN: SECRET, HOST: "example.test" };

function parse(servers: Record<string, unknown>) {
  return parseMcpConfig({ mcpServers: servers }, env, "/home/u/.shard/mcp.json");
}

describe("mcp.json", () => {
  test("stdio and Streamable HTTP entries load, with ${VAR} and ${VAR:-default} expanded in env and headers", () => {
    const { servers, warnings } = parse({
      gh: { command: "gh-mcp", args: ["--stdio"], env: { TOKEN: "${GITHUB_TOKEN}", MODE: "${MODE:-fast}" } },
      docs: { url: "https://${HOST}/mcp", headers: { Authorization: "Bearer ${GITHUB_TOKEN}" } },
      local: { command: "./server", sandbox: "off" },
    });
    expect(warnings).toEqual([]);
    expect(servers.map((s) => s.name)).toEqual(["gh", "docs", "local"]);
    const [gh, docs, local] = servers;
    expect(gh).toMatchObject({ command: "gh-mcp", args: ["--stdio"], env: { TOKEN: SECRET, MODE: "fast" } });
    // Only env and headers expand; a URL is used as written.
    expect(docs).toMatchObject({
      url: "https://${HOST}/mcp",
      headers: { Authorization: `Bearer ${SECRET}` },
    });
    expect(local).toMatchObject({ sandbox: "off", env: {} });
    // What messages and results from the server are scrubbed of.
    expect(gh?.secrets).toEqual([SECRET, "fast"]);
    expect(docs?.secrets).toEqual([`Bearer ${SECRET}`]);
  });

  test("a bad entry is a warning naming the server and field; the others still load; no value is quoted", () => {
    const { servers, warnings } = parse({
      good: { command: "ok" },
      badargs: { command: "x", args: "--flag" },
      badenv: { command: "x", env: { TOKEN: 42, OTHER: SECRET } },
      badheader: { url: "https://h.test/mcp", headers: { Authorization: ["Bearer", SECRET] } },
      unset: { command: "x", env: { KEY: `${SECRET}\${NOT_SET_ANYWHERE}` } },
      both: { command: "x", url: "https://h.test" },
      neither: { args: [] },
      ftp: { url: "ftp://h.test/mcp" },
      sse: { type: "sse", url: "https://h.test/sse" },
      badsandbox: { command: "x", sandbox: "on" },
      "bad name": { command: "x" },
      two__under: { command: "x" },
    });
    expect(servers.map((s) => s.name)).toEqual(["good"]);
    const text = warnings.join("\n");
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("sk-live");
    const about = (name: string) => warnings.find((w) => w.includes(`server "${name}"`)) ?? "";
    expect(about("badargs")).toContain("args:");
    expect(about("badenv")).toContain("env.TOKEN:");
    expect(about("badheader")).toContain("headers.Authorization:");
    expect(about("unset")).toContain("env.KEY uses ${NOT_SET_ANYWHERE}, which is not set");
    expect(about("both")).toContain('needs either "command"');
    expect(about("neither")).toContain('needs either "command"');
    expect(about("ftp")).toContain("url must be an http:// or https:// URL");
    expect(about("sse")).toContain("type:");
    expect(about("badsandbox")).toContain("sandbox:");
    expect(about("bad name")).toContain("the name must be");
    expect(about("two__under")).toContain("the name must be");
    for (const w of warnings) expect(w).toEndWith("; it is skipped");
  });

  test("a file that is not JSON, or has no mcpServers object, is a warning that quotes nothing from it", () => {
    const home = makeTempDir("shard-mcp-config-");
    writeFileSync(join(home, "mcp.json"), `{"mcpServers": {"gh": {"env": {"T": "${SECRET}"}}`);
    const broken = loadMcpConfig(home, env);
    expect(broken.servers).toEqual([]);
    expect(broken.warnings).toEqual([`${join(home, "mcp.json")} is not valid JSON; no MCP servers`]);
    writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: [SECRET] }));
    expect(loadMcpConfig(home, env).warnings.join()).not.toContain(SECRET);
    // No file: no servers, nothing to say.
    expect(loadMcpConfig(makeTempDir("shard-mcp-config-"), env)).toEqual({ servers: [], warnings: [] });
  });

  test("${VAR} expansion: set, default, unset (named, never the text around it)", () => {
    expect(expandVars("a${X}b${Y:-d}c", { X: "1" })).toEqual({ ok: true, value: "a1bdc" });
    expect(expandVars("${X:-}", {})).toEqual({ ok: true, value: "" });
    expect(expandVars("$X ${ X} plain", {})).toEqual({ ok: true, value: "$X ${ X} plain" });
    expect(expandVars("secret${MISSING}", {})).toEqual({ ok: false, missing: "MISSING" });
  });

  test("the redactor scrubs every secret of four characters or more", () => {
    const redact = redactor([SECRET, "on", `Bearer ${SECRET}`]);
    expect(redact(`failed with Bearer ${SECRET} and ${SECRET}; on`)).toBe(
      "failed with [redacted] and [redacted]; on",
    );
  });

  test("timeouts come from config.json mcp, defaults otherwise, a bad value is a warning", () => {
    const home = makeTempDir("shard-mcp-config-");
    expect(loadMcpTimeouts(home)).toEqual({ timeouts: { connectMs: 30_000, callMs: 120_000 }, warnings: [] });
    writeFileSync(
      join(home, "config.json"),
      JSON.stringify({ mcp: { connect_timeout_ms: 5000, call_timeout_ms: -1 } }),
    );
    const loaded = loadMcpTimeouts(home);
    expect(loaded.timeouts).toEqual({ connectMs: 5000, callMs: 120_000 });
    expect(loaded.warnings).toEqual([
      `${join(home, "config.json")}: mcp.call_timeout_ms must be a positive integer (milliseconds); using the default`,
    ]);
  });
});
