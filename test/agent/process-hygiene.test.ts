/**
 * Process hygiene of a real `shard agent` / `shard run`: a descendant that escaped the bash
 * process group cannot hang a call, `abort` or a signal; a signal or stdin EOF mid-stream still
 * ends the turn for the client; a second SIGINT cannot orphan the bash group; and the groups of
 * an agent killed -9 are killed by the next agent on the same home, never a reused pid.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { currentBootId, processStartTime } from "../../src/support/process-start.ts";
import { processGroupsDir } from "../../src/tools/process-registry.ts";
import { CHILD_ENV } from "../support/child-env.ts";
import { type AgentProcess, mockHome, SHARD_MAIN, tempDir } from "./support/agent-process.ts";
import { answerNextPermission, livingGroupMembers, until } from "./support/events.ts";
import { useAgentHarness } from "./support/harness.ts";

setDefaultTimeout(60_000);

// These tests are about the process group of an unconfined command (host pids, written by the
// command itself); a sandboxed command's clean-up is tested in test/sandbox/.
const { llm, spawn } = useAgentHarness({ args: ["--sandbox", "off"] });

/** Processes a test started outside any group the agent kills (e.g. `setsid sleep`), and groups. */
const pidsToKill: number[] = [];
const groupsToKill: number[] = [];
afterEach(() => {
  const targets = [...pidsToKill.splice(0), ...groupsToKill.splice(0).map((pgid) => -pgid)];
  for (const target of targets) {
    if (Math.abs(target) <= 1) continue; // never our own group (kill(0)) or init
    try {
      process.kill(target, "SIGKILL");
    } catch {
      // already gone
    }
  }
});

/**
 * A command whose `sleep` leaves the bash group with setsid and keeps stdout/stderr open;
 * "started" is printed once the sleep runs (setsid happens before the exec).
 */
const ESCAPE =
  "setsid sleep 300 & echo $! > escaped.pid; " +
  'until [ "$(ps -o comm= -p $!)" = sleep ]; do sleep 0.01; done; echo started';

/** Reads a pid a command wrote to `file` in the agent's cwd, once it is there. */
function pidFrom(agent: AgentProcess, file: string): Promise<number> {
  const path = join(agent.cwd, file);
  return until(() => {
    if (!existsSync(path)) return undefined;
    const n = Number(readFileSync(path, "utf8").trim());
    return n > 1 ? n : undefined;
  });
}

/** Prompts for one bash call, answers its permission request and waits for it to start. */
async function startBash(agent: AgentProcess, args: { command: string; timeout?: number }): Promise<number> {
  const from = agent.events.length;
  llm().enqueue({ steps: [{ tool_call: { name: "bash", args } }] });
  const res = await agent.request({ type: "prompt", message: "run it" });
  expect(res.success).toBe(true);
  await answerNextPermission(agent, from);
  await agent.waitType("tool_call", from);
  return from;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("a descendant that escaped the process group (setsid) holding the pipes", () => {
  test("a timed-out call still returns, and the next command is answered", async () => {
    const agent = await spawn();
    const from = await startBash(agent, { command: `${ESCAPE}; sleep 300`, timeout: 2 });
    pidsToKill.push(await pidFrom(agent, "escaped.pid"));
    const result = await agent.waitType("tool_result", from);
    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result.content)).toContain("timed out");
    const modes = await agent.request({ type: "list_modes" });
    expect(modes.success).toBe(true);
    await agent.waitTurnEnd(from);
  });

  test("abort is answered and ends the turn", async () => {
    const agent = await spawn();
    const from = await startBash(agent, { command: `${ESCAPE}; sleep 300` });
    pidsToKill.push(await pidFrom(agent, "escaped.pid"));
    await agent.waitFor((e) => e.type === "tool_output" && e.text_delta.includes("started"), from);
    const res = await agent.request({ type: "abort" });
    expect(res.success).toBe(true);
    await agent.waitTurnEnd(from);
    expect((await agent.request({ type: "list_modes" })).success).toBe(true);
  });

  test("SIGTERM makes the agent exit", async () => {
    const agent = await spawn();
    const from = await startBash(agent, { command: `${ESCAPE}; sleep 300` });
    pidsToKill.push(await pidFrom(agent, "escaped.pid"));
    await agent.waitFor((e) => e.type === "tool_output" && e.text_delta.includes("started"), from);
    agent.proc.kill("SIGTERM");
    expect(await agent.exited).toBe(143);
    expect(agent.proc.signalCode).toBeNull();
  });
});

describe("every signal that ends the agent kills the bash group first", () => {
  for (const [signal, code] of [
    ["SIGTERM", 143],
    ["SIGINT", 130],
    ["SIGHUP", 129],
  ] as const) {
    test(`${signal}, and another while the group is being killed: exit ${code}, the group is gone`, async () => {
      const agent = await spawn();
      // The shell notes the group's SIGTERM and carries on, so the kill takes the whole grace
      // period before SIGKILL: the second signal surely arrives while the first is handled.
      const command =
        "trap 'echo term >> term.log' TERM; echo $$ > pid.txt; while :; do sleep 1000 & wait; done";
      await startBash(agent, { command });
      const pgid = await pidFrom(agent, "pid.txt");
      groupsToKill.push(pgid);
      await until(() => (livingGroupMembers(pgid).length >= 2 ? true : undefined));
      agent.proc.kill(signal);
      await until(() => (existsSync(join(agent.cwd, "term.log")) ? true : undefined));
      agent.proc.kill(signal);
      expect(await agent.exited).toBe(code);
      expect(agent.proc.signalCode).toBeNull(); // it exited by itself, not killed by the signal
      expect(livingGroupMembers(pgid)).toEqual([]);
    });
  }
});

describe("the turn ends for the client before the agent exits", () => {
  async function midStream(agent: AgentProcess): Promise<number> {
    llm().enqueue({ steps: [{ text: "Streaming" }, { hold: "until-the-agent-stops" }] });
    const from = agent.events.length;
    await agent.request({ type: "prompt", message: "long answer" });
    await agent.waitType("message_delta", from);
    return from;
  }

  /** turn_end, then status idle, both after `from`. */
  async function expectTurnEndThenIdle(agent: AgentProcess, from: number): Promise<void> {
    const end = await agent.waitType("turn_end", from);
    await agent.waitStatus("idle", agent.events.indexOf(end));
  }

  test("on SIGTERM mid-stream", async () => {
    const agent = await spawn();
    const from = await midStream(agent);
    agent.proc.kill("SIGTERM");
    expect(await agent.exited).toBe(143);
    await expectTurnEndThenIdle(agent, from);
  });

  test("on stdin EOF mid-stream", async () => {
    const agent = await spawn();
    const from = await midStream(agent);
    expect(await agent.close()).toBe(0);
    await expectTurnEndThenIdle(agent, from);
  });
});

describe("process groups of an agent killed -9", () => {
  test("are killed by the next agent on the same home", async () => {
    const home = mockHome(llm().url);
    const first = await spawn({ home });
    await startBash(first, { command: "echo $$ > pid.txt; sleep 1000" });
    const pgid = await pidFrom(first, "pid.txt");
    await until(() => (livingGroupMembers(pgid).length >= 1 ? true : undefined));
    const record = join(processGroupsDir(home), `${pgid}.json`);
    expect(existsSync(record)).toBe(true);

    await first.kill9();
    groupsToKill.push(pgid); // in case the fix fails: the test must not leave it behind
    expect(livingGroupMembers(pgid).length).toBeGreaterThan(0); // orphaned, still running

    await spawn({ home });
    await until(() => (livingGroupMembers(pgid).length === 0 ? true : undefined));
    expect(existsSync(record)).toBe(false);
  });

  test("a record whose pid now belongs to an unrelated process never kills it", async () => {
    const home = mockHome(llm().url);
    // A real unrelated process, leader of its own group, as a reused pid would be.
    const unrelated = Bun.spawn(["sleep", "1000"], { detached: true, stdio: ["ignore", "ignore", "ignore"] });
    pidsToKill.push(unrelated.pid);
    const deadOwner = Bun.spawn(["true"]);
    await deadOwner.exited;
    const startTime = processStartTime(unrelated.pid);
    expect(startTime).toBeDefined();
    const record = join(processGroupsDir(home), `${unrelated.pid}.json`);
    mkdirSync(processGroupsDir(home), { recursive: true });
    writeFileSync(
      record,
      JSON.stringify({
        pgid: unrelated.pid,
        start_time: String(Number(startTime) - 1), // the recorded leader started earlier: not this one
        boot_id: currentBootId(),
        owner_pid: deadOwner.pid,
        owner_start_time: "1",
        command: "sleep 1000",
      }),
    );

    await spawn({ home });
    // The record of the dead owner was dealt with (dropped) ...
    expect(readdirSync(processGroupsDir(home))).toEqual([]);
    // ... and the process that reused the pid lives on.
    expect(alive(unrelated.pid)).toBe(true);
    expect(livingGroupMembers(unrelated.pid).length).toBe(1);
  });
});

describe("shard run", () => {
  test("a second SIGINT while the first is killing the bash group: exit 130 and the group is gone", async () => {
    const home = mockHome(llm().url);
    const cwd = tempDir("cwd");
    // The group ignores SIGTERM, so killing it takes the whole grace period before SIGKILL:
    // the second SIGINT surely arrives while the first is still being handled.
    const command = "trap '' TERM; echo $$ > pid.txt; sleep 1000";
    llm().enqueue({ steps: [{ tool_call: { name: "bash", args: { command } } }] });
    const proc = Bun.spawn(
      [
        process.execPath,
        SHARD_MAIN,
        "run",
        "--yes",
        "--sandbox",
        "off",
        "--cwd",
        cwd,
        "--model",
        "mock/chat",
        "sleep please",
      ],
      {
        stdin: "ignore",
        stdout: "ignore",
        stderr: "pipe",
        env: { ...CHILD_ENV, HOME: home, SHARD_HOME: home, SHARD_RETRY_BASE_MS: "5" },
      },
    );
    const pgid = await until(() => {
      const file = join(cwd, "pid.txt");
      const n = existsSync(file) ? Number(readFileSync(file, "utf8")) : 0;
      return n > 1 && livingGroupMembers(n).length >= 1 ? n : undefined;
    });
    groupsToKill.push(pgid);
    const stderr = proc.stderr.getReader();
    let text = "";
    proc.kill("SIGINT");
    while (!text.includes("interrupted")) {
      const { done, value } = await stderr.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    proc.kill("SIGINT");
    for (;;) {
      const { done, value } = await stderr.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    const code = await proc.exited;
    expect(proc.signalCode).toBeNull(); // it exited by itself, not killed by the second signal
    expect(code).toBe(130);
    expect(text).toContain("interrupted");
    expect(await until(() => (livingGroupMembers(pgid).length === 0 ? true : undefined))).toBe(true);
  });
});
