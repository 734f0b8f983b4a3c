/**
 * Property: replaying the events a real runtime emitted, from its first `sync`, gives the
 * snapshot that the runtime's own `sync` shows at that point, and that snapshot agrees with
 * the runtime's authoritative state (the session's live window, its open requests, status,
 * mode, model). Random scripts of turns, tool calls, permissions, mode and model switches
 * and compactions run against the local streaming mock LLM; every point is checked.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRuntime } from "../../src/agent/create-runtime.ts";
import { describeModel } from "../../src/agent/models/model-controller.ts";
import type { AgentRuntime } from "../../src/agent/runtime.ts";
import type { AgentServerMessage, Connection } from "../../src/contracts/connection.ts";
import { type AgentSnapshot, snapshotFromSync, withoutSeq } from "../../src/snapshot/agent-snapshot.ts";
import { applyEvents } from "../../src/snapshot/apply-event.ts";
import type { SyncEvent } from "../../src/types/agent-events.ts";
import type { AgentEvent } from "../../src/types/catalog.ts";
import { mockHome, tempDir } from "../agent/support/agent-process.ts";
import { until } from "../agent/support/events.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";

setDefaultTimeout(60_000);
const llm = useMockLlmServer();

/** A small deterministic PRNG (mulberry32), so a failing seed replays exactly. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Recorder implements Connection {
  readonly messages: AgentServerMessage[] = [];
  constructor(readonly id: string) {}
  send(message: AgentServerMessage): void {
    this.messages.push(message);
  }
  events(): AgentEvent[] {
    return this.messages.filter((m): m is AgentEvent => m.type !== "response");
  }
  response(id: string) {
    return this.messages.find((m) => m.type === "response" && m.id === id);
  }
}

/** The runtime's own sync right now: what a client attaching at this point receives. */
function freshSync(runtime: AgentRuntime): SyncEvent {
  const probe = new Recorder(`probe_${Math.random()}`);
  runtime.attach(probe);
  runtime.detach(probe.id);
  const sync = probe.events().find((e) => e.type === "sync");
  if (sync?.type !== "sync") throw new Error("attach sent no sync");
  return sync;
}

function replay(client: Recorder): AgentSnapshot {
  const events = client.events();
  const first = events.findIndex((e) => e.type === "sync");
  const sync = events[first];
  if (sync?.type !== "sync") throw new Error("no sync recorded");
  return applyEvents(snapshotFromSync(sync), events.slice(first + 1));
}

function checkPoint(runtime: AgentRuntime, client: Recorder, where: string): void {
  const replayed = replay(client);
  const sync = freshSync(runtime);
  expect({ where, snapshot: replayed }).toEqual({ where, snapshot: snapshotFromSync(sync) });
  // …and both agree with the runtime's authoritative state.
  expect({ where, window: replayed.live_window }).toEqual({ where, window: runtime.session.liveWindow() });
  expect(replayed.pending_requests).toEqual(runtime.openRequests().map(withoutSeq));
  expect(replayed.status).toBe(runtime.status);
  expect(replayed.mode).toBe(runtime.modes.current.name);
  expect(replayed.model).toEqual(describeModel(runtime.models.current));
  expect(replayed.reasoning_level).toBe(runtime.models.effort());
  expect(replayed.session_id).toBe(runtime.session.sessionId);
  checkToolCallRecords(replayed, where);
}

/**
 * The per-call records name only calls the live window shows, and every call that ran there
 * has the descriptors its events carried: `read` its code, `bash` its command, exit code and time.
 */
function checkToolCallRecords(snapshot: AgentSnapshot, where: string): void {
  const records = new Map((snapshot.tool_calls ?? []).map((r) => [r.tool_call_id, r]));
  const calls = new Map<string, string>();
  const results = new Map<string, boolean>();
  for (const message of snapshot.live_window.messages) {
    for (const block of message.content) {
      if (block.type === "tool_call") calls.set(block.id, block.name);
      if (block.type === "tool_result") results.set(block.tool_call_id, block.is_error === true);
    }
  }
  for (const id of records.keys())
    expect({ where, id, shown: calls.has(id) || results.has(id) }).toEqual({ where, id, shown: true });
  for (const [id, name] of calls) {
    if (results.get(id) !== false) continue; // no result yet, or denied/failed
    const record = records.get(id);
    if (name === "read")
      expect({ where, kind: record?.result_render?.kind }).toEqual({ where, kind: "code" });
    if (name === "bash") {
      expect({
        where,
        kind: record?.call_render?.kind,
        exit: record?.exit_code,
        read_only: record?.read_only,
      }).toEqual({
        where,
        kind: "command",
        exit: 0,
        read_only: false,
      });
      expect(record?.duration_ms).toBeGreaterThanOrEqual(0);
    }
  }
}

type Step = "text" | "read" | "bash_allow" | "bash_deny" | "mode" | "model" | "reasoning" | "compact";
const STEPS: Step[] = ["text", "read", "bash_allow", "bash_deny", "mode", "model", "reasoning", "compact"];

async function runScript(seed: number): Promise<void> {
  const random = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const cwd = tempDir("snap-cwd");
  writeFileSync(join(cwd, "notes.txt"), "line one\nline two\n");
  const created = createRuntime({
    home: mockHome(llm().url),
    cwd,
    env: {},
    serverVersion: "test",
    model: "mock/chat",
    // The script's bash steps are questions to the person, which a confined call would skip.
    sandbox: { policy: "ask" },
  });
  if (!created.ok) throw new Error(created.error.message);
  const runtime = created.value.runtime;
  const { handleInbound } = await import("../../src/agent/protocol/commands.ts");
  const client = new Recorder("client");
  runtime.attach(client);
  let n = 0;
  const command = async (body: Record<string, unknown>) => {
    const id = `c${++n}`;
    await handleInbound(runtime, client, { ...body, id });
    return until(() => client.response(id));
  };
  const turnEnds = () => client.events().filter((e) => e.type === "turn_end").length;
  const idleAfterTurn = async (ends: number) => {
    await until(() => (turnEnds() > ends && !runtime.turnActive && !runtime.busy ? true : undefined));
  };
  const chunks = () => 1 + Math.floor(random() * 6);
  try {
    checkPoint(runtime, client, `seed ${seed}: start`);
    for (let i = 0; i < 6; i++) {
      const step = pick(STEPS);
      const where = `seed ${seed}, step ${i}: ${step}`;
      const ends = turnEnds();
      switch (step) {
        case "text":
          llm().enqueue({
            steps: [
              { thinking: "let me think", chunks: chunks() },
              { text: `answer ${i} `.repeat(20), chunks: chunks() },
            ],
          });
          await command({ type: "prompt", message: `question ${i}` });
          await idleAfterTurn(ends);
          break;
        case "read":
          llm().enqueue(
            {
              steps: [
                { text: "reading" },
                { tool_call: { name: "read", args: { path: "notes.txt" }, chunks: chunks() } },
              ],
            },
            { steps: [{ text: "it says line one", chunks: chunks() }] },
          );
          await command({ type: "prompt", message: "read notes.txt" });
          await idleAfterTurn(ends);
          break;
        case "bash_allow":
        case "bash_deny": {
          llm().enqueue(
            { steps: [{ tool_call: { name: "bash", args: { command: `echo step-${i}` } } }] },
            { steps: [{ text: "ran it" }] },
          );
          const asked = client.events().filter((e) => e.type === "permission_request").length;
          await command({ type: "prompt", message: "run a command" });
          if (runtime.modes.current.name === "plan") {
            await idleAfterTurn(ends); // plan mode denies bash without asking
            break;
          }
          const request = await until(
            () => client.events().filter((e) => e.type === "permission_request")[asked],
          );
          if (request.type !== "permission_request") throw new Error("not a permission request");
          checkPoint(runtime, client, `${where} (pending)`);
          await command({
            type: "permission_response",
            request_id: request.request_id,
            decision: step === "bash_allow" ? "allow" : "deny",
          });
          await idleAfterTurn(ends);
          break;
        }
        case "mode":
          await command({ type: "set_mode", mode: runtime.modes.current.name === "plan" ? "build" : "plan" });
          break;
        case "model":
          await command({
            type: "set_model",
            model: runtime.models.current.id === "mock/chat" ? "mockant/claude" : "mock/chat",
          });
          break;
        case "reasoning":
          if (runtime.models.levels().length > 0) {
            await command({
              type: "set_reasoning_level",
              model: runtime.models.current.id,
              effort: pick(["low", "medium", "high"]),
            });
          }
          break;
        case "compact":
          await command({ type: "session_op", op: "compact", args: { keep_recent_tokens: 1 } });
          await until(() => (runtime.busy ? undefined : true));
          break;
      }
      checkPoint(runtime, client, where);
    }
  } finally {
    await runtime.close();
  }
}

describe("AgentSnapshot replay", () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    test(`seed ${seed}: replaying the event log gives the runtime's sync and its real state`, async () => {
      await runScript(seed);
    });
  }
});
