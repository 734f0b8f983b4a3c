/** Small readers over recorded agent events, shared by the runtime protocol tests. */
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

/** Live (non-zombie) members of a process group, from `ps`. */
export function livingGroupMembers(pgid: number): string[] {
  const ps = Bun.spawnSync(["ps", "-eo", "pid=,pgid=,stat="]);
  return new TextDecoder()
    .decode(ps.stdout)
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length === 3 && Number(f[1]) === pgid && !f[2]!.startsWith("Z"))
    .map((f) => f.join(" "));
}

/** Waits until `check` returns a value (polls a condition the agent cannot announce, e.g. a file). */
export async function until<T>(check: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await Bun.sleep(20);
  }
}
