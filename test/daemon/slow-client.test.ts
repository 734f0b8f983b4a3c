/**
 * A client that stops reading (ARCHITECTURE §6.1, PROTOCOL P2): once its outbound buffer is over
 * the cap the daemon closes it, and the agent and the other clients never wait for it.
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { MockStep } from "../support/mock-llm/types.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { DaemonHarness } from "./support/daemon-harness.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
let harness: DaemonHarness | undefined;
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

/**
 * Connects, attaches, then reads nothing until a line arrives on stdin; then reads to EOF and
 * prints how many bytes it got. It only ends if the daemon closed the connection.
 */
const STALLED_CLIENT = `
import socket, sys, json
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall((json.dumps({"type": "agent.attach", "id": "a", "agent_id": sys.argv[2], "role": "observer"}) + "\\n").encode())
print("attached", flush=True)
sys.stdin.readline()
total = 0
while True:
    chunk = s.recv(65536)
    if not chunk:
        break
    total += len(chunk)
print(total, flush=True)
`;

test("a client that stops reading is closed over the cap while another client gets every event", async () => {
  harness = await DaemonHarness.start(llm().url, { outboundCapBytes: 1024 * 1024 });
  const fast = await harness.unixClient();
  const agentId = await harness.createAgent(fast);
  await fast.ok({ type: "agent.attach", agent_id: agentId });
  const stalled = Bun.spawn(["python3", "-c", STALLED_CLIENT, harness.socketPath, agentId], {
    stdin: "pipe",
    stdout: "pipe",
  });
  const lines = stalled.stdout.pipeThrough(new TextDecoderStream()).getReader();
  expect((await lines.read()).value).toContain("attached");
  // The attach is handled before this later request of the fast client is answered.
  await fast.ok({ type: "agent.list" });

  // 3 MB in 1 KB deltas, paced so the reading client (in this same process) keeps up.
  const piece = "x".repeat(10_000);
  const steps: MockStep[] = [];
  for (let i = 0; i < 300; i++) steps.push({ text: piece, chunks: 10 }, { delay_ms: 2 });
  const text = piece.repeat(300);
  llm().enqueue({ steps });
  const from = fast.messages.length;
  await fast.ok({ type: "prompt", agent_id: agentId, message: "flood" });
  await fast.waitAgent(agentId, "turn_end", from);
  const deltas = fast.agentEvents(agentId, from).filter((m) => m.type === "message_delta");
  expect(deltas.map((m) => m.text_delta).join("")).toBe(text);
  const seqs = fast.agentEvents(agentId, from).map((m) => m.seq);
  expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));

  // Now it reads: it gets what was in flight, then EOF — the daemon closed it.
  stalled.stdin.write("go\n");
  stalled.stdin.flush();
  const received = Number((await lines.read()).value);
  expect(await stalled.exited).toBe(0);
  expect(received).toBeLessThan(text.length);
  expect(readFileSync(join(harness.home, "logs", "daemon.log"), "utf8")).toContain(
    "over the 1048576-byte outbound cap",
  );
});
