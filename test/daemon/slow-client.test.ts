/**
 * A client that stops reading (docs/architecture.md §5.6, docs/protocol.md §5.2): once its outbound
 * buffer is over the cap the daemon closes it, and the agent and the other clients never wait for
 * it; under the cap, what it has not taken waits in the shared run buffers and reaches it intact.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { MockStep } from "../support/mock-llm/types.ts";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { type DaemonHarness, useDaemonHarnesses } from "./support/daemon-harness.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
let harness: DaemonHarness | undefined;
const startHarness = useDaemonHarnesses(llm);

/**
 * Connects (unix socket, or TCP with a WebSocket handshake and masked text frames), attaches as an
 * observer, then reads nothing until a line arrives on stdin; then reads to EOF and prints how
 * many bytes it got and whether a close reason came with them. It ends only if the daemon
 * closed the connection.
 */
const STALLED_CLIENT = `
import socket, sys, json, os
transport, address, agent_id = sys.argv[1], sys.argv[2], sys.argv[3]
attach = json.dumps({"type": "agent.attach", "id": "a", "agent_id": agent_id, "role": "observer"})
if transport == "unix":
    s = socket.socket(socket.AF_UNIX)
    s.connect(address)
    s.sendall((attach + "\\n").encode())
else:
    host, port = address.split(":")
    s = socket.socket()
    # A small receive window: the kernel then holds little on this side (the sender's buffer
    # still autotunes up to tcp_wmem's maximum, hence the bigger flood for this transport).
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16384)
    s.connect((host, int(port)))
    s.sendall(("GET /ws HTTP/1.1\\r\\nHost: %s\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\n"
               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\\r\\nSec-WebSocket-Version: 13\\r\\n\\r\\n" % address).encode())
    head = b""
    while b"\\r\\n\\r\\n" not in head:
        head += s.recv(1)
    assert b" 101 " in head, head
    payload = attach.encode()
    mask = os.urandom(4)
    s.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
print("attached", flush=True)
sys.stdin.readline()
total, tail = 0, b""
while True:
    chunk = s.recv(65536)
    if not chunk:
        break
    total += len(chunk)
    tail = (tail + chunk)[-4096:]
print(json.dumps({"total": total, "reason": b"outbound buffer over" in tail}), flush=True)
`;

/** The next whole line of the child's output (chunks may split or be empty). */
async function readLine(
  reader: ReadableStreamDefaultReader<string>,
  carry: { text: string },
): Promise<string> {
  for (;;) {
    const nl = carry.text.indexOf("\n");
    if (nl >= 0) {
      const line = carry.text.slice(0, nl);
      carry.text = carry.text.slice(nl + 1);
      return line;
    }
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stalled client ended early; its output: ${carry.text}`);
    carry.text += value;
  }
}

/**
 * A client run by python3 (`script` with `args`) that prints "attached" once its attach is sent
 * and reads nothing until `go`; `next` is its next line of output.
 */
async function pythonClient(script: string, args: string[]) {
  const proc = Bun.spawn(["python3", "-c", script, ...args], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
  });
  const lines = proc.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const carry = { text: "" };
  const next = () => readLine(lines, carry);
  expect(await next()).toBe("attached");
  const go = () => {
    proc.stdin.write("go\n");
    proc.stdin.flush();
  };
  return { proc, next, go };
}

for (const transport of ["unix", "websocket"] as const) {
  describe(`slow client over ${transport}`, () => {
    test("a client that stops reading is closed over the cap while another client gets every event", async () => {
      harness = await startHarness({ outboundCapBytes: 1024 * 1024 });
      const fast = await harness.client(transport);
      const agentId = await harness.createAgent(fast);
      await fast.ok({ type: "agent.attach", agent_id: agentId });
      const address = transport === "unix" ? harness.socketPath : harness.daemon.url.replace("http://", "");
      const stalled = await pythonClient(STALLED_CLIENT, [transport, address, agentId]);
      // The stalled client's attach is in before this later request is answered.
      await fast.ok({ type: "agent.list" });

      // 1 KB deltas, paced so the reading client (in this same process) keeps up; more than the
      // kernel's socket buffers and the cap can hold for the stalled one.
      const pieces = transport === "unix" ? 300 : 900;
      const piece = "x".repeat(10_000);
      const steps: MockStep[] = [];
      for (let i = 0; i < pieces; i++) steps.push({ text: piece, chunks: 10 }, { delay_ms: 2 });
      const text = piece.repeat(pieces);
      llm().enqueue({ steps });
      const from = fast.messages.length;
      await fast.ok({ type: "prompt", agent_id: agentId, message: "flood" });
      await fast.waitAgent(agentId, "turn_end", from);
      const deltas = fast.agentEvents(agentId, from).filter((m) => m.type === "message_delta");
      expect(deltas.map((m) => m.text_delta).join("")).toBe(text);
      const seqs = fast.agentEvents(agentId, from).map((m) => m.seq);
      expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));

      // Now it reads: it gets what was in flight, then EOF — the daemon closed it. A WebSocket
      // is ended without a close frame (docs/daemon.md): nothing waits for a peer not reading.
      stalled.go();
      const outcome = JSON.parse(await stalled.next());
      expect(await stalled.proc.exited).toBe(0);
      expect(outcome.total).toBeLessThan(text.length);
      expect(outcome.reason).toBe(false);
      expect(readFileSync(join(harness.home, "logs", "daemon.log"), "utf8")).toContain("outbound cap");
    });
  });
}

/**
 * Attaches on the unix socket as an observer, reads nothing until a line arrives on stdin, then
 * reads up to the agent's `turn_end` and prints the `[seq, text_delta]` of every delta it got.
 */
const PAUSED_CLIENT = `
import socket, sys, json
path, agent_id = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_UNIX)
s.connect(path)
s.sendall((json.dumps({"type": "agent.attach", "id": "a", "agent_id": agent_id, "role": "observer"}) + "\\n").encode())
print("attached", flush=True)
sys.stdin.readline()
buf, deltas, done = b"", [], False
while not done:
    chunk = s.recv(65536)
    if not chunk:
        break
    buf += chunk
    *lines, buf = buf.split(b"\\n")
    for line in lines:
        m = json.loads(line)
        if m.get("agent_id") != agent_id:
            continue
        if m.get("type") == "message_delta":
            deltas.append([m["seq"], m["text_delta"]])
        elif m.get("type") == "turn_end":
            done = True
print(json.dumps(deltas), flush=True)
`;

describe("a client that pauses under the cap", () => {
  test("gets every delta byte for byte as the client that kept reading, from the runs it held", async () => {
    harness = await startHarness();
    const reading = await harness.unixClient();
    const agentId = await harness.createAgent(reading);
    await reading.ok({ type: "agent.attach", agent_id: agentId });
    const paused = await pythonClient(PAUSED_CLIENT, [harness.socketPath, agentId]);
    await reading.ok({ type: "agent.list" });

    // 20,000 one-digit deltas (~3 MB routed): far more than the kernel holds for the paused
    // client, less than its cap, so the daemon keeps runs for it while it writes new ones for
    // the reading client; a run buffer reused too early would show as other digits.
    const count = 20_000;
    const text = Array.from({ length: count }, (_, i) => String((i * 7) % 10)).join("");
    llm().enqueue({ steps: [{ text, chunks: count }] });
    const from = reading.messages.length;
    await reading.ok({ type: "prompt", agent_id: agentId, message: "flood" });
    await reading.waitAgent(agentId, "turn_end", from);
    const expected = reading
      .agentEvents(agentId, from)
      .filter((m) => m.type === "message_delta")
      .map((m) => [m.seq, m.text_delta]);
    expect(expected.map(([, t]) => t).join("")).toBe(text);

    paused.go();
    const got: unknown = JSON.parse(await paused.next());
    paused.proc.kill();
    await paused.proc.exited;
    expect(got).toEqual(expected);
  });
});
