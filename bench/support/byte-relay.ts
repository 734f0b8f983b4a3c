/**
 * The cheapest process hop there can be, for bench/daemon.ts `--relay` (issue 18 F): spawns
 * the command given, takes one client on a unix socket, and copies bytes both ways without
 * reading them (no JSONL split, no parse, no seq). A turn through this relay against the same
 * turn direct is the floor of what any daemon in between costs on the machine at hand.
 * Usage: bun bench/support/byte-relay.ts <socket path> <command> [args…]
 */
export {};

const [socketPath, ...command] = process.argv.slice(2);
if (socketPath === undefined || command.length === 0)
  throw new Error("usage: byte-relay <socket> <command…>");

const runtime = Bun.spawn(command, { stdin: "pipe", stdout: "pipe", stderr: "ignore" });
/** Runtime output the client has not taken yet (the socket's write takes what it can). */
let waiting: Uint8Array[] = [];
let client: Bun.Socket<undefined> | undefined;

function drain(): void {
  while (client !== undefined && waiting.length > 0) {
    const head = waiting[0];
    if (head === undefined) break;
    const written = client.write(head);
    if (written >= head.length) waiting.shift();
    else {
      waiting[0] = head.subarray(Math.max(0, written));
      return;
    }
  }
}

Bun.listen({
  unix: socketPath,
  socket: {
    open(socket) {
      client = socket;
      drain();
    },
    data(_socket, chunk) {
      runtime.stdin.write(chunk);
      runtime.stdin.flush();
    },
    drain,
    close() {
      runtime.stdin.end();
    },
  },
});

for await (const chunk of runtime.stdout) {
  waiting.push(chunk);
  drain();
}
await runtime.exited;
waiting = [];
process.exitCode = 0;
