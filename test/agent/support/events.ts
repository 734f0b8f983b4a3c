/** Small readers over a real agent's recorded events, processes and session files, shared by its tests. */
import { expect } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentProcess, Msg } from "./agent-process.ts";

/** Event types in order with `status` events dropped and runs of `message_delta` collapsed to one. */
export function shape(events: Msg[]): string[] {
  const out: string[] = [];
  for (const e of events) {
    if (e.type === "status") continue;
    if (e.type === "message_delta" && out.at(-1) === "message_delta") continue;
    out.push(e.type);
  }
  return out;
}

/** The concatenated text of a message's blocks of one kind. */
export function blockText(message: Msg, kind: "text" | "thinking" = "text"): string {
  return (message.content as Msg[])
    .filter((b) => b.type === kind)
    .map((b) => b.text as string)
    .join("");
}

export function assistantMessages(events: Msg[]): Msg[] {
  return events
    .filter((e) => e.type === "message_complete" && e.message.role === "assistant")
    .map((e) => e.message as Msg);
}

/** Answers the next permission request at or after `from` with a structured choice. */
export async function answerNextPermission(
  agent: AgentProcess,
  from: number,
  choiceId = "allow_once",
): Promise<Msg> {
  const request = await agent.waitType("permission_request", from);
  agent.send({ type: "permission_response", request_id: request.request_id, choice_id: choiceId });
  return request;
}

/** Live (non-zombie) processes whose `column` (process group or parent id) is `id`, from `ps`. */
function livingProcesses(column: "pgid" | "ppid", id: number): string[] {
  const ps = Bun.spawnSync(["ps", "-eo", `pid=,${column}=,stat=`]);
  return new TextDecoder()
    .decode(ps.stdout)
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length === 3 && Number(f[1]) === id && !f[2]!.startsWith("Z"))
    .map((f) => f.join(" "));
}

/** Live (non-zombie) members of a process group. */
export function livingGroupMembers(pgid: number): string[] {
  return livingProcesses("pgid", pgid);
}

/** Live (non-zombie) direct children of a process. */
export function livingChildren(ppid: number): string[] {
  return livingProcesses("ppid", ppid);
}

/**
 * Waits until `check` returns a value (polls a condition the agent cannot announce, e.g. a file).
 * `what` names the condition in the error; by default the check's source.
 */
export async function until<T>(
  check: () => T | undefined,
  timeoutMs = 20_000,
  what: string = check.toString(),
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not met within ${timeoutMs} ms: ${what}`);
    await Bun.sleep(20);
  }
}

/** The id of the agent's active session, from `session_op list`. */
export async function activeSession(agent: AgentProcess): Promise<string> {
  const res = await agent.request({ type: "session_op", op: "list" });
  expect(res.success).toBe(true);
  return res.data.active;
}

/** The append-only file of a session under a SHARD_HOME. */
export function sessionFile(home: string, sessionId: string): string {
  return join(home, "sessions", sessionId, "session.jsonl");
}

/**
 * A shell snippet that waits until the test opens gate `name` in the agent's cwd: a bash call
 * that runs exactly as long as the test needs, instead of a `sleep` it bets on being long enough.
 */
export function waitForGate(name: string): string {
  return `while [ ! -e .gate-${name} ]; do sleep 0.01; done`;
}

/** Opens gate `name` in `cwd`: the `waitForGate(name)` in a running bash call goes on. */
export function openGate(cwd: string, name: string): void {
  writeFileSync(join(cwd, `.gate-${name}`), "");
}
