/**
 * A real client of the daemon over the unix socket (JSONL) or the WebSocket (one JSON message
 * per text frame). It records everything received, checks each message against the protocol
 * schemas, and waits for messages the way a client would.
 */
import { JsonlDecoder } from "../../../src/wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../../../src/wire/jsonl-encoder.ts";
import { eventValidator, validateResult } from "../../../src/wire/validate.ts";
import type { Msg } from "../../agent/support/agent-process.ts";

export type { Msg };

interface Wire {
  send(text: string): void;
  sendBinary(bytes: Uint8Array): void;
  close(): void;
  /** Bytes sent that the daemon has not taken yet (its socket is full or paused). */
  unsent(): number;
}

/** `/.git` as a path segment: a repository's git dir or a worktree's (`.git/worktrees/…`). */
const GIT_DIR_PATH = /\/\.git(\/|"|$)/;

function isWorkspaceMessage(msg: Msg): boolean {
  return (
    (typeof msg.type === "string" && msg.type.startsWith("workspace")) ||
    (msg.type === "response" && typeof msg.command === "string" && msg.command.startsWith("workspace."))
  );
}

export class DaemonClient {
  readonly messages: Msg[] = [];
  readonly schemaViolations: string[] = [];
  /** Successful responses whose `data` does not match their command's result schema. */
  readonly resultViolations: string[] = [];
  /**
   * Workspace responses and events that carried a git directory path (docs/workspaces.md forbids
   * it).
   */
  readonly gitDirLeaks: string[] = [];
  closed = false;
  closeReason = "";
  private waiters: { pred: (m: Msg) => boolean; from: number; resolve: (m: Msg) => void }[] = [];
  private closeWaiters: (() => void)[] = [];
  private wire: Wire | undefined;
  private nextId = 0;

  static async unix(path: string): Promise<DaemonClient> {
    const client = new DaemonClient();
    const decoder = new JsonlDecoder({
      value: (v) => client.receive(v as Msg),
      error: (e) => client.schemaViolations.push(`bad line from the daemon: ${e.message}`),
    });
    // What the socket did not take waits here for its drain, in order (Bun's write is unbuffered).
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    const writePending = (s: Bun.Socket<undefined>) => {
      while (pending.length > 0) {
        const next = pending[0]!;
        const written = s.write(next);
        if (written < 0) {
          pending = [];
          pendingBytes = 0;
          return;
        }
        pendingBytes -= written;
        if (written < next.length) {
          pending[0] = next.subarray(written);
          return;
        }
        pending.shift();
      }
    };
    const socket = await Bun.connect({
      unix: path,
      socket: {
        data: (_s, chunk) => decoder.push(chunk),
        drain: (s) => writePending(s),
        close: () => client.onClose("socket closed"),
        error: (_s, err) => client.onClose(err.message),
      },
    });
    const write = (bytes: Uint8Array) => {
      pending.push(bytes);
      pendingBytes += bytes.length;
      writePending(socket);
      socket.flush();
    };
    client.wire = {
      send: (text) => write(Buffer.from(text)),
      sendBinary: write,
      close: () => socket.end(),
      unsent: () => pendingBytes,
    };
    await client.waitType("hello");
    return client;
  }

  static async websocket(url: string): Promise<DaemonClient> {
    const client = new DaemonClient();
    const ws = new WebSocket(`${url.replace(/^http/, "ws")}/ws`);
    ws.onmessage = (e) => {
      if (typeof e.data === "string") client.receive(JSON.parse(e.data) as Msg);
      else client.schemaViolations.push("binary frame from the daemon");
    };
    ws.onclose = (e) => client.onClose(`${e.code} ${e.reason}`);
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error("WebSocket did not open"));
    });
    client.wire = {
      send: (text) => ws.send(text),
      sendBinary: (bytes) => ws.send(new Uint8Array(bytes)),
      close: () => ws.close(),
      unsent: () => ws.bufferedAmount,
    };
    await client.waitType("hello");
    return client;
  }

  private receive(msg: Msg): void {
    const checked = eventValidator.validate(msg);
    if (!checked.ok)
      this.schemaViolations.push(`${checked.error.message} in ${JSON.stringify(msg).slice(0, 300)}`);
    if (msg.type === "response" && msg.success === true) {
      const result = validateResult(String(msg.command), msg.data);
      if (!result.ok)
        this.resultViolations.push(`${result.error.message} in ${JSON.stringify(msg).slice(0, 300)}`);
    }
    if (isWorkspaceMessage(msg) && GIT_DIR_PATH.test(JSON.stringify(msg))) {
      this.gitDirLeaks.push(JSON.stringify(msg).slice(0, 300));
    }
    this.messages.push(msg);
    const index = this.messages.length - 1;
    this.waiters = this.waiters.filter((w) => {
      if (index >= w.from && w.pred(msg)) {
        w.resolve(msg);
        return false;
      }
      return true;
    });
  }

  private onClose(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.closeReason = reason;
    for (const w of this.closeWaiters) w();
  }

  whenClosed(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => this.closeWaiters.push(resolve));
  }

  send(message: object): void {
    this.wire?.send(encodeJsonLine(message));
  }

  /** Raw bytes or text exactly as given (for malformed-input tests). */
  sendRaw(text: string): void {
    this.wire?.send(text);
  }

  sendBinary(bytes: Uint8Array): void {
    this.wire?.sendBinary(bytes);
  }

  close(): void {
    this.wire?.close();
  }

  /** Bytes sent that the daemon has not read yet, as far as this side can tell. */
  get unsentBytes(): number {
    return this.wire?.unsent() ?? 0;
  }

  waitFor(pred: (m: Msg) => boolean, from = 0, timeoutMs = 20_000): Promise<Msg> {
    for (let i = from; i < this.messages.length; i++)
      if (pred(this.messages[i]!)) return Promise.resolve(this.messages[i]!);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `timed out after ${this.messages.length} messages; the last: ${this.messages
                .slice(-20)
                .map((m) => m.type)
                .join(", ")}${this.closed ? `; closed: ${this.closeReason}` : ""}`,
            ),
          ),
        timeoutMs,
      );
      this.waiters.push({
        pred,
        from,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  waitType(type: string, from = 0): Promise<Msg> {
    return this.waitFor((m) => m.type === type, from);
  }

  /** Waits for an event of `agentId` (tagged) of this type. */
  waitAgent(agentId: string, type: string, from = 0, extra: (m: Msg) => boolean = () => true): Promise<Msg> {
    return this.waitFor((m) => m.type === type && m.agent_id === agentId && extra(m), from);
  }

  async request(message: Msg): Promise<Msg> {
    this.nextId += 1;
    const id = message.id ?? `c${this.nextId}`;
    const from = this.messages.length;
    this.send({ ...message, id });
    return this.waitFor((m) => m.type === "response" && m.id === id, from);
  }

  /** Sends a command and fails the test unless it succeeds; returns `data`. */
  async ok(message: Msg): Promise<Msg["data"]> {
    const res = await this.request(message);
    if (!res.success) throw new Error(`${message.type} failed: ${JSON.stringify(res.error)}`);
    return res.data;
  }

  /** The agent's events with a daemon seq, in arrival order. */
  agentEvents(agentId: string, from = 0): Msg[] {
    return this.messages
      .slice(from)
      .filter((m) => m.agent_id === agentId && typeof m.seq === "number" && m.type !== "response");
  }
}
