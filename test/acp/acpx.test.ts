/**
 * The headless ACP client `acpx` (0.19.1, a dev dependency) drives `shard acp` end to end,
 * offline, against the mock LLM: one prompt whose bash call it approves, the call's output and
 * the streamed answer in its JSON stream, and `end_turn`. The acp-core-v1 conformance corpus
 * cannot run here: docs/acp.md says why.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { resolve } from "node:path";
import { mockHome, SHARD_MAIN, tempDir } from "../agent/support/agent-process.ts";
import { CHILD_ENV } from "../support/child-env.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";

setDefaultTimeout(90_000);

const llm = useMockLlmServer();
const ACPX = resolve(import.meta.dir, "../../node_modules/acpx/dist/cli.js");

test("acpx exec: one prompt end to end through shard acp", async () => {
  const home = mockHome(llm().url);
  const cwd = tempDir("cwd");
  llm().enqueue(
    { steps: [{ tool_call: { name: "bash", args: { command: "echo hello-from-acpx" } } }] },
    { steps: [{ text: "acpx end to end works", chunks: 3 }] },
  );
  const agent = `${process.execPath} ${SHARD_MAIN} acp --model mock/chat`;
  const proc = Bun.spawn(
    [process.execPath, ACPX, "--approve-all", "--format", "json", "--agent", agent, "exec", "run the echo"],
    {
      cwd,
      stdout: "pipe",
      stderr: "pipe",
      env: { ...CHILD_ENV, HOME: home, SHARD_HOME: home, SHARD_RETRY_BASE_MS: "5" },
    },
  );
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  expect({ code, err: code === 0 ? "" : err }).toEqual({ code: 0, err: "" });
  const messages: unknown[] = out
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
  const text = JSON.stringify(messages);
  expect(text).toContain('"protocolVersion":1');
  expect(text).toContain('"method":"session/request_permission"');
  expect(text).toContain('"status":"completed"');
  expect(text).toContain("hello-from-acpx");
  expect(text).toContain('"stopReason":"end_turn"');
  const chunks = messages.flatMap((m) => {
    const update = field(field(m, "params"), "update");
    const chunk = field(field(update, "content"), "text");
    return field(update, "sessionUpdate") === "agent_message_chunk" && typeof chunk === "string"
      ? [chunk]
      : [];
  });
  expect(chunks.join("")).toBe("acpx end to end works");
});

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null && key in value ? Reflect.get(value, key) : undefined;
}
