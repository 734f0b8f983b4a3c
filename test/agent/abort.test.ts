/**
 * `abort` and stdin EOF against a real `shard agent`: a held-open stream, a running bash
 * process group and a pending permission request are all cancelled, the agent goes idle (or
 * exits 0 on EOF) and no process is left behind.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CHILD_ENV } from "../support/child-env.ts";
import { type AgentProcess, mockHome, SHARD_MAIN, tempDir } from "./support/agent-process.ts";
import {
  activeSession,
  answerNextPermission,
  assistantMessages,
  blockText,
  livingChildren,
  livingGroupMembers,
  until,
} from "./support/events.ts";
import { useAgentHarness } from "./support/harness.ts";

setDefaultTimeout(60_000);

// These tests are about the process group of an unconfined command (host pids, written by the
// command itself); a sandboxed command's clean-up is tested in test/sandbox/.
const { llm, spawn } = useAgentHarness({ args: ["--sandbox", "off"] });

/** A bash command that writes its own pid (= its process group id) and leaves a background job. */
const SLEEPER = "echo $$ > pid.txt; sleep 30 & sleep 30";

/** Starts a turn whose bash call runs SLEEPER (permission answered) and returns the group id. */
async function startSleeper(agent: AgentProcess, from: number): Promise<number> {
  llm().enqueue({ steps: [{ tool_call: { name: "bash", args: { command: SLEEPER } } }] });
  const res = await agent.request({ type: "prompt", message: "sleep for a long time" });
  expect(res.success).toBe(true);
  await answerNextPermission(agent, from);
  await agent.waitType("tool_call", from);
  const pidFile = join(agent.cwd, "pid.txt");
  const pid = await until(() => {
    if (!existsSync(pidFile)) return undefined;
    const n = Number(readFileSync(pidFile, "utf8").trim());
    return n > 0 ? n : undefined;
  });
  // Both sleeps are up before we interrupt them.
  await until(() => (livingGroupMembers(pid).length >= 3 ? true : undefined));
  return pid;
}

describe("abort", () => {
  test("during a held-open stream: success, turn_end, idle, partial message reconciled", async () => {
    const agent = await spawn();
    llm().enqueue({ steps: [{ text: "Partial answer", chunks: 2 }, { hold: "until-abort" }] });
    const from = agent.events.length;
    await agent.request({ type: "prompt", message: "write a long essay" });
    await agent.waitFor((e) => e.type === "message_delta" && e.kind === "text", from);
    await agent.waitFor(
      () =>
        agent.events
          .slice(from)
          .filter((e) => e.type === "message_delta")
          .map((e) => e.text_delta)
          .join("") === "Partial answer",
      from,
    );

    const res = await agent.request({ type: "abort" });
    expect(res).toMatchObject({ type: "response", command: "abort", success: true });
    const events = agent.events.slice(from);
    expect(events.some((e) => e.type === "turn_end")).toBe(true);
    await agent.waitStatus("idle", from, 10_000);
    const [partial] = assistantMessages(agent.events.slice(from));
    expect(blockText(partial!)).toBe("Partial answer");
    expect(agent.events.slice(from).some((e) => e.type === "error")).toBe(false);

    // The agent is usable again and the partial answer is part of the history.
    const base = llm().requests.length;
    const next = await agent.prompt("shorter please");
    expect(blockText(assistantMessages(next)[0]!)).toBe("Hello from the mock LLM.");
    expect(JSON.stringify(llm().requests[base]?.body.messages)).toContain("Partial answer");
  });

  test("during bash: every process of the command is gone afterwards", async () => {
    const agent = await spawn();
    const from = agent.events.length;
    const pgid = await startSleeper(agent, from);
    expect(livingGroupMembers(pgid).length).toBeGreaterThanOrEqual(3);

    const res = await agent.request({ type: "abort" });
    expect(res.success).toBe(true);
    expect(livingGroupMembers(pgid)).toEqual([]);
    const result = await agent.waitType("tool_result", from);
    expect(result.is_error).toBe(true);
    await agent.waitTurnEnd(from);
    // Only the one provider call: an aborted turn does not go back to the model.
    expect(agent.events.slice(from).filter((e) => e.type === "usage")).toHaveLength(1);
  });

  test("resolves a pending permission request and the agent goes idle", async () => {
    const agent = await spawn();
    llm().enqueue({ steps: [{ tool_call: { name: "bash", args: { command: "touch should-not-exist" } } }] });
    const from = agent.events.length;
    await agent.request({ type: "prompt", message: "touch a file" });
    const request = await agent.waitType("permission_request", from);
    await agent.waitStatus("waiting_for_permission", from);

    const res = await agent.request({ type: "abort" });
    expect(res.success).toBe(true);
    const resolved = await agent.waitType("permission_resolved", from);
    expect(resolved.request_id).toBe(request.request_id);
    await agent.waitTurnEnd(from);
    expect(agent.events.slice(from).some((e) => e.type === "tool_call")).toBe(false);
    expect(existsSync(join(agent.cwd, "should-not-exist"))).toBe(false);

    // A late answer to the closed request is discarded silently.
    const late = await agent.request({
      type: "permission_response",
      request_id: request.request_id,
      choice_id: "allow_once",
    });
    expect(late.success).toBe(true);
    const sync = await agent.request({ type: "list_modes" });
    expect(sync.success).toBe(true);
  });

  test("during a long retry back-off (429 with retry-after) ends the turn at once", async () => {
    const agent = await spawn();
    llm().enqueue({ status: 429, error_type: "rate_limit_error", retry_after_s: 30 });
    const from = agent.events.length;
    await agent.request({ type: "prompt", message: "rate limited" });
    const retrying = await agent.waitFor((e) => e.type === "status" && e.detail !== undefined, from);
    expect(retrying.status).toBe("streaming");
    expect(retrying.detail).toMatch(/^retrying in 30 s, attempt 2\/\d+: /);
    const res = await agent.request({ type: "abort" });
    expect(res.success).toBe(true);
    await agent.waitTurnEnd(from);
    const events = await agent.prompt("no longer limited");
    expect(blockText(assistantMessages(events)[0]!)).toBe("Hello from the mock LLM.");
  });

  test("while idle is a harmless success", async () => {
    const agent = await spawn();
    const from = agent.events.length;
    const res = await agent.request({ type: "abort" });
    expect(res).toMatchObject({ command: "abort", success: true });
    expect(agent.events.slice(from).filter((e) => e.type !== "response")).toEqual([]);
    const events = await agent.prompt("hello after abort");
    expect(events.some((e) => e.type === "turn_end")).toBe(true);
  });
});

describe("stdin EOF", () => {
  test("when idle: exit code 0", async () => {
    const agent = await spawn();
    expect(await agent.close()).toBe(0);
  });

  test("mid-stream: exit code 0", async () => {
    const agent = await spawn();
    llm().enqueue({ steps: [{ text: "Streaming" }, { hold: "until-eof" }] });
    const from = agent.events.length;
    await agent.request({ type: "prompt", message: "long answer" });
    await agent.waitType("message_delta", from);
    expect(await agent.close()).toBe(0);
  });

  test("while a permission request is open: exit code 0, the tool never runs", async () => {
    const agent = await spawn();
    llm().enqueue({ steps: [{ tool_call: { name: "bash", args: { command: "touch after-eof" } } }] });
    const from = agent.events.length;
    await agent.request({ type: "prompt", message: "touch it" });
    await agent.waitType("permission_request", from);
    expect(await agent.close()).toBe(0);
    expect(existsSync(join(agent.cwd, "after-eof"))).toBe(false);
  });

  test("mid-bash: exit code 0 and no child process left", async () => {
    const agent = await spawn();
    const from = agent.events.length;
    const pgid = await startSleeper(agent, from);
    expect(await agent.close()).toBe(0);
    expect(livingGroupMembers(pgid)).toEqual([]);
    expect(livingChildren(agent.proc.pid)).toEqual([]);
  });
});

describe("signals and a vanished client", () => {
  test("SIGTERM mid-bash: the command's process group is killed and the session lock released", async () => {
    const agent = await spawn();
    const from = agent.events.length;
    const sessionId = await activeSession(agent);
    const pgid = await startSleeper(agent, from);
    agent.proc.kill("SIGTERM");
    expect(await agent.exited).toBe(143);
    expect(livingGroupMembers(pgid)).toEqual([]);
    expect(existsSync(join(agent.home, "sessions", sessionId, "session.lock"))).toBe(false);
  });

  test("a client that stops reading stdout (EPIPE) makes the agent stop instead of hanging", async () => {
    const home = mockHome(llm().url);
    const proc = Bun.spawn(
      [process.execPath, SHARD_MAIN, "agent", "--cwd", tempDir("cwd"), "--model", "mock/chat"],
      {
        stdin: "pipe",
        stdout: "pipe",
        stderr: "ignore",
        env: { ...CHILD_ENV, HOME: home, SHARD_HOME: home },
      },
    );
    const reader = proc.stdout.getReader();
    await reader.read(); // hello has arrived; now the client goes away without closing stdin
    await reader.cancel();
    try {
      const code = await until(() => {
        if (proc.exitCode !== null) return proc.exitCode;
        try {
          proc.stdin.write(`${JSON.stringify({ type: "list_modes", id: "x" })}\n`);
          proc.stdin.flush();
        } catch {
          // the agent already closed its stdin
        }
        return undefined;
      });
      expect(code).toBe(143);
    } finally {
      proc.kill("SIGKILL");
    }
  });
});
