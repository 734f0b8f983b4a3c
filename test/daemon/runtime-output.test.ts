/**
 * A runtime's output is trusted less than the daemon's own code: the daemon forwards a runtime's
 * lines without re-encoding them, so a line that is bad, or valid but in a shape its splice is
 * not proven for, must still reach clients as one well-formed message with the daemon's `seq`
 * and `agent_id` — or not at all — and must not corrupt the agent's snapshot.
 */
import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { type DaemonHarness, useDaemonHarnesses } from "./support/daemon-harness.ts";
import { INVALID_LINE_COUNT, MISBEHAVING_LINES } from "./support/misbehaving-runtime.ts";

const llm = useMockLlmServer();
let harness: DaemonHarness | undefined;
const startHarness = useDaemonHarnesses(llm);
const RUNTIME = [process.execPath, resolve(import.meta.dir, "support/misbehaving-runtime.ts")];
/** The deltas of MISBEHAVING_LINES that are valid events, in order. */
const VALID_TEXT = 'abc\u2028deé"\\\n😀';

/** A unix-socket client that keeps the daemon's bytes as they came. */
async function rawClient(
  path: string,
): Promise<{ text: () => string; send: (line: string) => void; until: (s: string) => Promise<void> }> {
  let text = "";
  let wake: (() => void) | undefined;
  const socket = await Bun.connect({
    unix: path,
    socket: {
      data: (_s, chunk) => {
        text += new TextDecoder().decode(chunk);
        wake?.();
      },
    },
  });
  return {
    text: () => text,
    send: (line) => {
      socket.write(`${line}\n`);
      socket.flush();
    },
    until: async (s) => {
      while (!text.includes(s)) await new Promise<void>((resolve) => (wake = resolve));
    },
  };
}

for (const transport of ["unix", "websocket"] as const) {
  describe(`a misbehaving runtime's output over ${transport}`, () => {
    test("reaches clients as valid events only, each with the daemon's seq and agent_id, and folds into the snapshot", async () => {
      harness = await startHarness({ shardCommand: RUNTIME });
      const client = await harness.client(transport);
      const agentId = await harness.createAgent(client);
      await client.ok({ type: "agent.attach", agent_id: agentId });
      const raw = await rawClient(harness.socketPath);
      raw.send(JSON.stringify({ type: "agent.attach", id: "raw", agent_id: agentId, role: "observer" }));
      await raw.until('"id":"raw"');
      // The observer's attach is in before this later request is answered.
      await client.ok({ type: "agent.list" });

      const from = client.messages.length;
      await client.ok({ type: "prompt", agent_id: agentId, message: "go" });
      await client.waitAgent(agentId, "status", from, (m) => m.status === "idle");
      const events = client.agentEvents(agentId, from);
      expect(events.map((m) => m.type)).toEqual([
        "status",
        "message_delta",
        "message_delta",
        "message_delta",
        "message_delta",
        "message_delta",
        "message_delta",
        "status",
      ]);
      expect(events.map((m) => m.text_delta ?? m.status).join("")).toBe(`streaming${VALID_TEXT}idle`);
      expect(events.every((m) => m.agent_id === agentId)).toBe(true);
      const seqs = events.map((m) => m.seq);
      expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
      expect(client.schemaViolations).toEqual([]);

      // On the wire: one message per line, no raw U+2028, one seq and one agent_id per event.
      await raw.until('{"type":"status","status":"idle"');
      const lines = raw
        .text()
        .split("\n")
        .filter((l) => l.includes('"seq":') && !l.includes('"type":"sync"'));
      const forwarded = lines.slice(lines.findIndex((l) => l.includes('"status":"streaming"')));
      expect(forwarded).toHaveLength(events.length);
      for (const line of forwarded) {
        expect(line).not.toContain("\u2028");
        expect(line.split('"seq":')).toHaveLength(2);
        expect(line.split('"agent_id":')).toHaveLength(2);
        expect(JSON.parse(line)).toEqual(events[forwarded.indexOf(line)]!);
      }

      // The snapshot folded the valid events only.
      const late = await harness.client(transport);
      await late.ok({ type: "agent.attach", agent_id: agentId, role: "observer" });
      const sync = await late.waitAgent(agentId, "sync");
      expect(sync.streaming_message).toEqual({
        message_id: "m1",
        blocks: [{ kind: "text", text: VALID_TEXT }],
      });
      expect(sync.seq).toBe(seqs.at(-1)!);
      expect(MISBEHAVING_LINES).toHaveLength(events.length + INVALID_LINE_COUNT);
    });
  });
}
