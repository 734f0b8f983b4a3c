/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, client mode) against
 * Shard's client (test/mcp/conformance/shard-client.ts drives src/mcp/mcp-connection.ts). It runs
 * offline: each scenario's server is local. `sse-retry` also passes but judges reconnect timing
 * in milliseconds, so it is left out here (no timed assertions); OAuth and elicitation scenarios
 * test features Shard's client does not have yet (docs/mcp.md).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { resolve } from "node:path";
import { CHILD_ENV } from "../support/child-env.ts";
import { makeTempDir } from "../support/temp-dirs.ts";

setDefaultTimeout(60_000);

const SUITE = resolve(import.meta.dir, "../../node_modules/@modelcontextprotocol/conformance/dist/index.js");
const CLIENT = resolve(import.meta.dir, "conformance/shard-client.ts");

describe("MCP conformance suite, client mode", () => {
  for (const scenario of ["initialize", "tools_call"]) {
    test(scenario, async () => {
      const proc = Bun.spawn(
        [
          process.execPath,
          SUITE,
          "client",
          "--command",
          `${process.execPath} ${CLIENT}`,
          "--scenario",
          scenario,
        ],
        // Results go to ./results: a directory of the test's own.
        { cwd: makeTempDir("shard-mcp-conformance-"), env: { ...CHILD_ENV }, stdout: "pipe", stderr: "pipe" },
      );
      const [out, err, code] = await Promise.all([
        new Response(proc.stdout).text(),
        new Response(proc.stderr).text(),
        proc.exited,
      ]);
      const report = `${out}\n${err}`;
      expect(report).toContain("OVERALL: PASSED");
      expect(report).toContain("0 failed");
      expect(code).toBe(0);
    });
  }
});
