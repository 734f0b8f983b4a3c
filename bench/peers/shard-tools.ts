/**
 * Shard under the benchmark: `shard agent` on stdio (compiled binary or sources), `shard
 * daemon` with a client on its unix socket, and the SDK's `spawnAgent` + `agent.run`.
 */
import { copyFileSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { spawnAgent } from "../../sdk/src/direct.ts";
import { encodeJsonLine } from "../../src/wire/jsonl-encoder.ts";
import { Child } from "./child.ts";
import { withDeadline } from "./deadline.ts";
import { LineScanner } from "./lines.ts";
import { childPids } from "./proc-tree.ts";
import { shardLine } from "./stream-events.ts";
import { type BenchEvent, EventWaiter, type ToolDriver } from "./tool.ts";

export interface ShardSetup {
  /** What runs `shard`: `[binary]` or `[bun, src/cli/main.ts]`. */
  command: string[];
  /** How `command` is shown in the docs. */
  display: string;
  home: string;
  cwd: string;
  version: string;
}

const MODEL = "mock/chat";
const readCall = (file: string) => ({ name: "read", args: { path: file } });
const env = (home: string) => ({ ...process.env, SHARD_HOME: home, HOME: home });

function readStdout(child: Child, waiter: EventWaiter): void {
  const scanner = new LineScanner((line) => waiter.take(shardLine(line)));
  void (async () => {
    for await (const chunk of child.proc.stdout) scanner.push(chunk);
  })();
}

function send(child: Child, message: object): void {
  child.proc.stdin.write(encodeJsonLine(message));
  child.proc.stdin.flush();
}

async function closeAgent(child: Child): Promise<void> {
  child.proc.stdin.end();
  await withDeadline(child.proc.exited, 5000, "for the agent to exit on stdin EOF").catch(() => child.stop());
}

export function shardAgent(id: string, label: string, setup: ShardSetup): ToolDriver {
  return {
    id,
    label,
    version: setup.version,
    command: `${setup.display} agent --cwd <dir> --model ${MODEL}`,
    readCall,
    async start(timeoutMs) {
      const child = new Child([...setup.command, "agent", "--cwd", setup.cwd, "--model", MODEL], {
        cwd: setup.cwd,
        env: env(setup.home),
      });
      const waiter = new EventWaiter(child.died);
      readStdout(child, waiter);
      const sync = waiter.until((e) => e.type === "sync", timeoutMs, "for sync");
      sync.catch(() => {}); // awaited by the first turn
      try {
        await waiter.until((e) => e.type === "hello", timeoutMs, "for hello");
      } catch (err) {
        await child.stop();
        throw err;
      }
      return {
        rootPid: child.pid,
        async turn(prompt, ms) {
          await sync;
          const before = waiter.deltas;
          const end = waiter.until((e) => e.type === "turn_end", ms, "for turn_end");
          send(child, { type: "prompt", message: prompt });
          await end;
          return { deltas: waiter.deltas - before };
        },
        close: () => closeAgent(child),
      };
    },
  };
}

/** A lean client on the daemon's unix socket: byte-level delta counting, requests by id. */
class SocketClient {
  private socket: Bun.Socket<undefined> | undefined;
  private nextId = 0;
  connected = false;
  constructor(readonly waiter: EventWaiter) {}

  async connect(path: string): Promise<void> {
    const scanner = new LineScanner((line) => this.waiter.take(shardLine(line)));
    this.socket = await Bun.connect({ unix: path, socket: { data: (_s, chunk) => scanner.push(chunk) } });
    this.connected = true;
  }

  async request(message: Record<string, unknown>, ms: number): Promise<BenchEvent> {
    const id = `bench-${++this.nextId}`;
    const answer = this.waiter.until((e) => e.type === "response" && e.id === id, ms, `for ${message.type}`);
    this.socket?.write(encodeJsonLine({ ...message, id }));
    this.socket?.flush();
    const response = await answer;
    if (response.success !== true) throw new Error(`${message.type}: ${JSON.stringify(response.error)}`);
    return response;
  }

  end(): void {
    this.socket?.end();
  }
}

export function shardDaemon(id: string, label: string, setup: ShardSetup): ToolDriver {
  return {
    id,
    label,
    version: setup.version,
    command: `${setup.display} daemon --port 0 --idle-runtime-timeout 0, then a client on its unix socket: agent.create, agent.attach, prompt`,
    readCall,
    async start(timeoutMs) {
      // A fresh SHARD_HOME per start: the daemon keeps its agents durable, and the last
      // repetition's agents must not be part of the next start.
      const home = mkdtempSync(join(setup.home, "daemon-"));
      copyFileSync(join(setup.home, "models.json"), join(home, "models.json"));
      const child = new Child([...setup.command, "daemon", "--port", "0", "--idle-runtime-timeout", "0"], {
        cwd: setup.cwd,
        env: env(home),
      });
      const waiter = new EventWaiter(child.died);
      const client = new SocketClient(waiter);
      const hello = waiter.until((e) => e.type === "hello", timeoutMs, "for hello on the socket");
      hello.catch(() => {}); // awaited once connected
      const connect = async () => {
        for (;;) {
          try {
            await client.connect(join(home, "daemon.sock"));
            return await hello;
          } catch (err) {
            if (!child.alive || client.connected) throw err;
            await Bun.sleep(2);
          }
        }
      };
      try {
        await withDeadline(Promise.race([connect(), child.died]), timeoutMs, "for the daemon's socket");
      } catch (err) {
        await child.stop();
        throw err;
      }
      let agentId: string | undefined;
      const agent = async (ms: number) => {
        if (agentId) return agentId;
        const created = await client.request({ type: "agent.create", cwd: setup.cwd, model: MODEL }, ms);
        const data = created.data as { agent_id: string };
        await client.request({ type: "agent.attach", agent_id: data.agent_id }, ms);
        agentId = data.agent_id;
        return agentId;
      };
      return {
        rootPid: child.pid,
        async turn(prompt, ms) {
          const agent_id = await agent(ms);
          const before = waiter.deltas;
          const end = waiter.until(
            (e) => e.type === "turn_end" && e.agent_id === agent_id,
            ms,
            "for turn_end",
          );
          await client.request({ type: "prompt", message: prompt, agent_id }, ms);
          await end;
          return { deltas: waiter.deltas - before };
        },
        async close() {
          await client.request({ type: "daemon.shutdown", force: true }, 5000).catch(() => undefined);
          client.end();
          await withDeadline(child.proc.exited, 5000, "for the daemon to exit").catch(() => child.stop());
        },
      };
    },
  };
}

/** The SDK's direct transport: `spawnAgent` (ready at its `sync`), then `agent.run` per turn. */
export function shardSdk(id: string, label: string, setup: ShardSetup): ToolDriver {
  return {
    id,
    label,
    version: setup.version,
    command: `spawnAgent({ command: [<${setup.display}>], cwd, model }) then agent.run(prompt) (sdk/src/direct.ts)`,
    readCall,
    async start(timeoutMs) {
      const before = new Set(childPids(process.pid));
      const agent = await spawnAgent({
        cwd: setup.cwd,
        model: MODEL,
        env: env(setup.home),
        command: setup.command,
        startTimeoutMs: timeoutMs,
      });
      const pid = childPids(process.pid).find((p) => !before.has(p));
      if (pid === undefined)
        throw new Error("the SDK's agent process was not found among the bench's children");
      return {
        rootPid: pid,
        async turn(prompt, ms) {
          // Deltas are one character each in this benchmark, so the turn's text counts them.
          const { text } = await withDeadline(agent.run(prompt), ms, "for agent.run");
          return { deltas: text.length };
        },
        close: () => withDeadline(agent.close(), 5000, "for the SDK agent to close").catch(() => undefined),
      };
    },
  };
}
