/**
 * A `shard daemon` child on a bench home and a lean JSONL client on its unix socket (no schema
 * checks: only the daemon is measured), plus the /proc readings the daemon benches report.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { JsonlDecoder } from "../../src/wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../../src/wire/jsonl-encoder.ts";

export type Msg = { type: string } & Record<string, unknown>;

/** VmRSS and VmHWM (peak RSS) of a process, in MB; 0 once it is gone. */
export function memory(pid: number): { rss: number; peak: number } {
  let status = "";
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return { rss: 0, peak: 0 };
  }
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: kb("VmRSS"), peak: kb("VmHWM") };
}

/** The pids whose parent is `pid` (the daemon's runtimes). */
export function children(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The ppid is the second field after the parenthesised command name.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

export interface Peer {
  until(pred: (m: Msg) => boolean): Promise<Msg>;
  request(m: object): Promise<Msg>;
  /** Sends without waiting; false when the socket took only part (the rest waits for drain). */
  send(m: object): void;
  /** Raw text, honouring backpressure: resolves once the socket took all of it. */
  write(text: string): Promise<void>;
  close(): void;
}

export async function connect(path: string): Promise<Peer> {
  const waiters: { pred: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
  const decoder = new JsonlDecoder({
    value: (v) => {
      const m = v as Msg;
      for (const [i, w] of waiters.entries()) {
        if (!w.pred(m)) continue;
        waiters.splice(i, 1);
        w.resolve(m);
        return;
      }
    },
    error: () => {},
  });
  const until = (pred: (m: Msg) => boolean) => new Promise<Msg>((r) => waiters.push({ pred, resolve: r }));
  const hello = until((m) => m.type === "hello");
  let drained: (() => void) | undefined;
  const socket = await Bun.connect({
    unix: path,
    socket: {
      data: (_s, chunk) => decoder.push(chunk),
      drain: () => drained?.(),
    },
  });
  await hello;
  let next = 0;
  const write = async (text: string) => {
    let rest: Uint8Array = Buffer.from(text);
    for (;;) {
      const n = socket.write(rest);
      if (n < 0) throw new Error("the daemon closed the socket");
      if (n >= rest.length) return;
      rest = rest.subarray(n);
      await new Promise<void>((r) => {
        drained = r;
      });
    }
  };
  const request = async (m: object): Promise<Msg> => {
    const id = `r${++next}`;
    const response = until((r) => r.type === "response" && r.id === id);
    await write(encodeJsonLine({ ...m, id }));
    const res = await response;
    if (!res.success) throw new Error(JSON.stringify(res.error));
    return res;
  };
  return {
    until,
    request,
    send: (m) => void write(encodeJsonLine(m)),
    write,
    close: () => socket.end(),
  };
}

/** Starts `shard daemon` on `home` and connects once its socket answers. */
export async function startDaemon(
  command: string[],
  home: string,
  flags: string[] = [],
): Promise<{ proc: Bun.Subprocess; peer: Peer }> {
  const proc = Bun.spawn([...command, "daemon", "--port", "0", ...flags], {
    stdin: "ignore",
    stdout: "ignore",
    stderr: "ignore",
    env: { ...process.env, SHARD_HOME: home, HOME: home },
  });
  let peer: Peer | undefined;
  while (!peer)
    peer = await connect(join(home, "daemon.sock")).catch(() => Bun.sleep(5).then(() => undefined));
  // The HTTP side loads just after the socket listens; agent.list answers once that settled.
  await Bun.sleep(200);
  await peer.request({ type: "agent.list" });
  return { proc, peer };
}
