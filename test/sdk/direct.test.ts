/**
 * The direct transport against a real `shard agent` child on the mock LLM: the one-call
 * `run`, streaming a turn, steer / follow-up / abort, typed errors, session operations.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Agent } from "../../sdk/src/agent.ts";
import { spawnAgent } from "../../sdk/src/direct.ts";
import { ShardError } from "../../sdk/src/errors.ts";
import type { AgentStreamEvent } from "../../sdk/src/stream-events.ts";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import { CHILD_ENV } from "../support/child-env.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";

// Real agent processes and daemons on a machine shared with other work.
setDefaultTimeout(60_000);

const llm = useMockLlmServer({ clearRequestsBeforeEach: true });
const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

async function start(): Promise<Agent> {
  const agent = await spawnAgent({
    home: mockHome(llm().url),
    cwd: tempDir("cwd"),
    model: "mock/chat",
    env: { ...CHILD_ENV, SHARD_RETRY_BASE_MS: "5" },
  });
  agents.push(agent);
  return agent;
}

const userTexts = (body: { messages: { role: string; content: unknown }[] }) =>
  body.messages.filter((m) => m.role === "user").map((m) => JSON.stringify(m.content));

describe("direct agent", () => {
  test("run resolves at turn_end with the final text and the turn's usage", async () => {
    const agent = await start();
    llm().enqueue({ steps: [{ text: "All tests pass now.", chunks: 4 }], usage: { input: 12, output: 5 } });
    const { text, usage, messages, aborted } = await agent.run("fix the failing test");
    expect(text).toBe("All tests pass now.");
    expect(usage.input).toBe(12);
    expect(usage.output).toBe(5);
    expect(aborted).toBe(false);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(agent.state.turn_id).toBeUndefined();
    expect(agent.state.live_window.messages.map((m) => m.id)).toEqual(messages.map((m) => m.id));
  });

  test("a turn streams its typed events in order, deltas first, turn_end last", async () => {
    const agent = await start();
    llm().enqueue({ steps: [{ text: "one two three", chunks: 3 }] });
    const turn = await agent.prompt("count");
    const seen: AgentStreamEvent[] = [];
    for await (const event of turn) seen.push(event);
    const types = seen.map((e) => e.type);
    expect(types[0]).toBe("turn_start");
    expect(types.at(-1)).toBe("turn_end");
    const deltas = seen.flatMap((e) => (e.type === "message_delta" && e.text_delta ? [e.text_delta] : []));
    expect(deltas.join("")).toBe("one two three");
    expect(deltas.length).toBe(3);
    expect((await turn.done).text).toBe("one two three");
  });

  test("steer reaches the model inside the running turn; a follow-up starts the next turn", async () => {
    const agent = await start();
    llm().enqueue(
      { steps: [{ hold: "first" }, { tool_call: { name: "ls", args: {} } }] },
      { steps: [{ text: "listed" }] },
      { steps: [{ text: "second answer" }] },
    );
    const turn = await agent.prompt("list the files");
    await llm().waitForHold("first");
    await turn.steer("and mention the count");
    const next = await turn.followUp("now summarise");
    llm().release("first");
    const first = await turn.done;
    expect(first.text).toBe("listed");
    expect(userTexts(llm().requests[1]?.body).join("\n")).toContain("and mention the count");
    const second = await next.done;
    expect(second.text).toBe("second answer");
    expect(second.turn_id).not.toBe(first.turn_id);
    expect(second.messages[0]?.content).toEqual([{ type: "text", text: "now summarise" }]);
  });

  test("abort ends the turn: done resolves with aborted, the agent is idle again", async () => {
    const agent = await start();
    llm().enqueue({ steps: [{ text: "starting" }, { hold: "stuck" }, { text: "never" }] });
    const turn = await agent.prompt("take forever");
    await llm().waitForHold("stuck");
    const queued = await turn.followUp("never delivered");
    await turn.abort();
    const result = await turn.done;
    expect(result.aborted).toBe(true);
    const dropped = await queued.done;
    expect(dropped).toMatchObject({ aborted: true, turn_id: undefined, messages: [] });
    expect(result.text).not.toContain("never");
    llm().release("stuck");
    llm().enqueue({ steps: [{ text: "back" }] });
    expect((await agent.run("again")).text).toBe("back");
    expect(JSON.stringify(llm().requests.map((r) => r.body.messages))).not.toContain("never delivered");
  });

  test("onUi answers the ask tool from code; without a handler a direct agent gets no answer (null)", async () => {
    const agent = await start();
    const asked: string[] = [];
    const off = agent.onUi((request) => {
      asked.push(`${request.kind}: ${request.title}`);
      return request.options?.[1] ?? null;
    });
    llm().enqueue(
      {
        steps: [{ tool_call: { name: "ask", args: { question: "Which color?", options: ["red", "blue"] } } }],
      },
      { steps: [{ text: "blue it is" }] },
    );
    const answered = await agent.run("pick a color");
    expect(asked).toEqual(["select: Which color?"]);
    const answer = answered.messages.flatMap((m) => m.content).find((b) => b.type === "tool_result");
    expect(JSON.stringify(answer)).toContain("blue");

    off();
    llm().enqueue(
      { steps: [{ tool_call: { name: "ask", args: { question: "Anything else?" } } }] },
      { steps: [{ text: "no answer then" }] },
    );
    expect((await agent.run("ask me")).text).toBe("no answer then");
    expect(asked).toHaveLength(1);
  });

  test("failures are ShardErrors carrying the wire's code and message", async () => {
    const agent = await start();
    const unknownMode = await agent.setMode("no-such-mode").catch((e: unknown) => e);
    expect(unknownMode).toBeInstanceOf(ShardError);
    expect((unknownMode as ShardError).code).toBe("NOT_FOUND");
    expect((unknownMode as ShardError).message).toContain("no-such-mode");

    llm().enqueue({ status: 400, error_type: "invalid_request_error" });
    const providerDown = await agent.run("hello").catch((e: unknown) => e);
    expect(providerDown).toBeInstanceOf(ShardError);
    expect((providerDown as ShardError).code).toBe("PROVIDER_ERROR");

    const steerIdle = await agent.steer("nothing runs").catch((e: unknown) => e);
    expect((steerIdle as ShardError).code).toBe("CONFLICT");
  });

  test("modes and models are typed results; mode_changed updates state", async () => {
    const agent = await start();
    const modes = await agent.listModes();
    expect(modes.modes.map((m) => m.name)).toContain("plan");
    const changed = await agent.setMode("plan");
    expect(changed).toEqual({ previous_mode: "build", mode: "plan" });
    await agent.listModes(); // later answer: the mode_changed event before it is applied
    expect(agent.state.mode).toBe("plan");
    expect((await agent.listModels()).active.id).toBe("mock/chat");
  });

  test("setSandbox: a stricter mode is a typed result at once, and sandbox_changed updates state", async () => {
    const agent = await start();
    expect(agent.state.sandbox?.mode).toBe("workspace-write");
    expect(await agent.setSandbox("read-only")).toEqual({ mode: "read-only", pending: false });
    await agent.listModes(); // later answer: the sandbox_changed event before it is applied
    expect(agent.state.sandbox?.mode).toBe("read-only");
  });

  test("sessions: the agent lists its own session and forks at a message", async () => {
    const agent = await start();
    llm().enqueue({ steps: [{ text: "first reply" }] });
    const { messages } = await agent.run("remember this");
    const listing = await agent.sessions.list();
    expect(listing.sessions.map((s) => s.session_id)).toContain(listing.active);
    const fork = await agent.sessions.fork(messages[0]!.id);
    expect(fork.session_id).not.toBe(listing.active);
    const after = await agent.sessions.list();
    expect(after.sessions.find((s) => s.session_id === fork.session_id)?.fork?.source_session_id).toBe(
      listing.active,
    );
  });

  test("an agent that cannot start is a RUNTIME_START_FAILED with its reason", async () => {
    const failure = await spawnAgent({
      home: mockHome(llm().url),
      cwd: tempDir("cwd"),
      model: "nowhere/none",
      env: { ...CHILD_ENV },
    }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ShardError);
    expect((failure as ShardError).code).toBe("RUNTIME_START_FAILED");
  });
});
