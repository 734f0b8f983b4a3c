/**
 * `shard run` with a user's MCP server: `--allow mcp__<server>__<tool>` is accepted though the
 * server's tools are known only once it starts, and allows that tool; without it the call is
 * denied like any other (exit 3).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { tempDir } from "../agent/support/agent-process.ts";
import { shard } from "../cli/support/shard-cli.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { everythingStdio, runEnv, writeMcpConfig } from "./support.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();

function runWithEverything(args: string[]) {
  const home = tempDir("home");
  writeMcpConfig(home, { everything: everythingStdio(`shard-mcp-run-${process.pid}`) });
  return shard(["run", "--cwd", tempDir("cwd"), ...args], runEnv(home, llm().url));
}

describe("shard run with an MCP server", () => {
  test("--allow of an MCP tool allows it", async () => {
    llm().enqueue(
      { steps: [{ tool_call: { name: "mcp__everything__echo", args: { message: "from run" } } }] },
      { steps: [{ text: "Echoed." }] },
    );
    const res = await runWithEverything(["--allow", "mcp__everything__echo", "echo something"]);
    expect(res.stderr).not.toContain("denied:");
    expect(res.code).toBe(0);
    expect(res.stdout).toBe("Echoed.\n");
    expect(JSON.stringify(llm().requests.at(-1)?.body)).toContain("Echo: from run");
  });

  test("without --allow the MCP call is denied (exit 3)", async () => {
    llm().enqueue(
      { steps: [{ tool_call: { name: "mcp__everything__echo", args: { message: "no" } } }] },
      { steps: [{ text: "Denied." }] },
    );
    const res = await runWithEverything(["echo something"]);
    expect(res.code).toBe(3);
    expect(res.stderr).toContain("denied:");
  });
});
