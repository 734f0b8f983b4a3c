/**
 * WebSocket keepalive (docs/protocol.md §1): the server pings a quiet peer and drops one that never
 * answers; a peer that answers (every real WebSocket client does) stays. The idle time is 8 s
 * here (Bun's minimum) instead of 30 s.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { useMockLlmServer } from "../support/mock-llm/use-mock-llm-server.ts";
import { type DaemonHarness, useDaemonHarnesses } from "./support/daemon-harness.ts";

setDefaultTimeout(60_000);

const llm = useMockLlmServer();
let harness: DaemonHarness | undefined;
const startHarness = useDaemonHarnesses(llm);

/** Upgrades, then reads without ever answering a ping; reports the first ping and the close. */
const SILENT_PEER = `
import socket, sys
host, port = sys.argv[1].split(":")
s = socket.create_connection((host, int(port)))
s.sendall(("GET /ws HTTP/1.1\\r\\nHost: %s\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\n"
           "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\\r\\nSec-WebSocket-Version: 13\\r\\n\\r\\n" % sys.argv[1]).encode())
data = b""
while True:
    chunk = s.recv(65536)
    if not chunk:
        break
    data += chunk
# 0x89 is an unmasked server ping frame.
print("pinged" if b"\\x89" in data else "no-ping", flush=True)
`;

test("a peer that never answers pings is dropped; one that answers stays", async () => {
  harness = await startHarness({ wsIdleTimeoutS: 8 });
  const healthy = await harness.wsClient();
  const silent = Bun.spawn(["python3", "-c", SILENT_PEER, harness.daemon.url.replace("http://", "")], {
    stdout: "pipe",
    stderr: "inherit",
  });
  // It ends only when the daemon closes the connection.
  expect((await new Response(silent.stdout).text()).trim()).toBe("pinged");
  expect(await silent.exited).toBe(0);
  // The answering client outlived it and still gets answers.
  expect(healthy.closed).toBe(false);
  expect(await healthy.ok({ type: "agent.list" })).toEqual({ agents: [] });
});
