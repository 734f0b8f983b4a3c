/**
 * Every example of sdk/README.md runs here as a user runs it (`bun sdk/examples/<name>.ts`),
 * against the mock LLM and, for the watcher, a real daemon.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import { useDaemonHarnesses } from "../daemon/support/daemon-harness.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { ExampleProcess } from "./support/example-process.ts";

// Real agent processes and daemons on a machine shared with other work.
setDefaultTimeout(60_000);

const llm = useMockLlmServer({ clearRequestsBeforeEach: true });
const startDaemon = useDaemonHarnesses(llm);

function run(name: string, args: string[] = []) {
  const home = mockHome(llm().url);
  return new ExampleProcess(name, args, {
    cwd: tempDir("cwd"),
    env: { SHARD_HOME: home, HOME: home, SHARD_MODEL: "mock/chat" },
  });
}

describe("sdk examples", () => {
  test("one-shot: one task, the answer and its usage printed", async () => {
    llm().enqueue({ steps: [{ text: "The failing test is fixed." }], usage: { input: 21, output: 6 } });
    const out = await run("one-shot", ["fix the failing test"]).success();
    expect(out).toContain("The failing test is fixed.");
    expect(out).toContain("(21 tokens in, 6 out)");
    expect(JSON.stringify(llm().requests[0]?.body)).toContain("fix the failing test");
  });

  test("parallel: three agents, three results collected", async () => {
    llm().enqueue(
      { steps: [{ text: "result-one" }] },
      { steps: [{ text: "result-two" }] },
      { steps: [{ text: "result-three" }] },
    );
    const out = await run("parallel").success();
    for (const r of ["result-one", "result-two", "result-three"]) expect(out).toContain(r);
    expect(out.match(/^\[\d\] /gm)?.length).toBe(3);
  });

  test("approve-bash: the policy lets echo run and refuses rm", async () => {
    llm().enqueue(
      { steps: [{ tool_call: { name: "bash", args: { command: "echo policy-says-yes" } } }] },
      { steps: [{ tool_call: { name: "bash", args: { command: "rm -rf important" } } }] },
      { steps: [{ text: "done with both" }] },
    );
    const out = await run("approve-bash", ["try two commands"]).success();
    expect(out).toContain('allow: {"command":"echo policy-says-yes"}');
    expect(out).toContain('deny: {"command":"rm -rf important"}');
    expect(out).toContain("done with both");
    const toModel = JSON.stringify(llm().requests[2]?.body.messages);
    expect(toModel).toContain("policy-says-yes"); // echo's output came back
    expect(toModel).toContain("not allowed by policy: rm -rf important");
  });

  test("watch-daemon: follows existing and new agents until the requested number of turns", async () => {
    const h = await startDaemon();
    const admin = await h.unixClient();
    const first = await h.createAgent(admin, { name: "first" });
    const watcher = new ExampleProcess("watch-daemon", ["--turns", "2"], {
      cwd: h.cwd,
      env: { SHARD_HOME: h.home, HOME: h.home },
    });
    await watcher.line("watching 1 agents");
    const second = await h.createAgent(admin, { name: "second" });
    await watcher.line("attached second");
    for (const id of [first, second]) await admin.ok({ type: "agent.attach", agent_id: id });
    llm().enqueue({ steps: [{ text: "first is done" }] });
    await admin.ok({ type: "prompt", agent_id: first, message: "go" });
    await watcher.line("first: turn done: first is done");
    llm().enqueue({ steps: [{ text: "second is done" }] });
    await admin.ok({ type: "prompt", agent_id: second, message: "go" });
    const out = await watcher.success();
    expect(out).toContain("second: turn done: second is done");
    expect(out).toContain("first: streaming");
  });
});
