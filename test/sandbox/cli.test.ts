/**
 * The sandbox as `shard run` shows it: each bash line says how the command ran, a machine
 * without bubblewrap is a warning (never silence), and bad flags are usage errors.
 */
import { describe, expect, test } from "bun:test";
import { probeBubblewrap } from "../../src/sandbox/bubblewrap-probe.ts";
import { tempDir } from "../agent/support/agent-process.ts";
import { shard } from "../cli/support/shard-cli.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";

const llm = useMockLlmServer();
const probe = probeBubblewrap(process.env);

/** `shard run` against the mock server, with the sandbox's own defaults (no test policy). */
function run(args: string[], env: Record<string, string> = {}) {
  llm().enqueue(
    { steps: [{ tool_call: { name: "bash", args: { command: "echo hi" } } }] },
    { steps: [{ text: "ok" }] },
  );
  return shard(["run", "--cwd", tempDir("cwd"), ...args, "say hi"], {
    OPENAI_BASE_URL: `${llm().url}/v1`,
    SHARD_MODEL: "openai/anything",
    SHARD_RETRY_BASE_MS: "5",
    SHARD_SANDBOX_POLICY: "",
    ...env,
  });
}

describe("shard run and the sandbox", () => {
  test.skipIf(!probe.ok)(
    "a confined bash call runs without a question and its line says sandboxed",
    async () => {
      const ran = await run([]);
      expect(ran.code).toBe(0);
      expect(ran.stderr).toMatch(/^✓ bash echo hi .*\(sandboxed: workspace-write\)$/m);
      expect(ran.stderr).not.toContain("denied:");
    },
  );

  test("with --sandbox off the call asks (denied without --yes) and says not sandboxed once allowed", async () => {
    const denied = await run(["--sandbox", "off"]);
    expect(denied.stderr).toContain("denied: Allow bash: echo hi?");
    const allowed = await run(["--sandbox", "off", "--yes"]);
    expect(allowed.stderr).toMatch(/^✓ bash echo hi .*\(not sandboxed\)$/m);
  });

  test("no bubblewrap: the default warns that commands run unconfined; an asked-for mode refuses to start", async () => {
    const warned = await run(["--yes"], { SHARD_BWRAP: "none" });
    expect(warned.stderr).toContain(
      "shard run: warning: the sandbox is unavailable, so commands run unconfined",
    );
    const refused = await run(["--sandbox", "read-only"], { SHARD_BWRAP: "none" });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--sandbox: sandbox "read-only" is not available on this machine');
  });

  test("bad values are usage errors that name the flag", async () => {
    for (const [flag, value, said] of [
      ["--sandbox", "strict", '--sandbox: "strict" is not a mode'],
      ["--sandbox-policy", "never", '--sandbox-policy: "never" is not a policy'],
      ["--allow-host", "http://x", '--allow-host: "http://x" is not a host name'],
    ] as const) {
      const ran = await shard(["run", flag, value, "hi"]);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toContain(said);
    }
  });
});
