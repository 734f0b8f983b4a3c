/**
 * A live connection to the running daemon over its unix socket (local trust, PROTOCOL §4.2):
 * JSONL both ways, requests answered by `id` (with a timeout), every other message handed to
 * `onMessage`. Used by the CLI's daemon commands (`shard ls`, `shard attach`, `shard auth`).
 */
import { join } from "node:path";
import type { OutboundCommand } from "../types/command-table.ts";
import type { Response } from "../types/response.ts";
import { JsonlDecoder } from "../wire/jsonl-decoder.ts";
import { encodeJsonLine } from "../wire/jsonl-encoder.ts";
import { asResponse } from "../wire/validate.ts";

export type CliCommand = OutboundCommand;

const DAEMON_REQUEST_TIMEOUT_MS = 30_000;

export type RequestResult = { ok: true; response: Response } | { ok: false; message: string };

interface DaemonStreamEvents {
  message(message: unknown): void;
  closed(): void;
}

export class DaemonStream {
  private nextId = 1;
  private readonly waiting = new Map<string, (result: RequestResult) => void>();
  private closed = false;
  private closing = false;

  private constructor(private readonly socket: Awaited<ReturnType<typeof Bun.connect>>) {}

  static async open(
    home: string,
    events: Partial<DaemonStreamEvents> = {},
  ): Promise<{ ok: true; stream: DaemonStream } | { ok: false; message: string }> {
    let stream: DaemonStream | undefined;
    const decoder = new JsonlDecoder({
      value: (value) => stream?.received(value, events),
      error: () => {},
    });
    try {
      const socket = await Bun.connect({
        unix: join(home, "daemon.sock"),
        socket: {
          data: (_s, chunk) => decoder.push(chunk),
          close: () => stream?.lost(events),
          error: () => stream?.lost(events),
        },
      });
      stream = new DaemonStream(socket);
      return { ok: true, stream };
    } catch {
      return {
        ok: false,
        message: `no daemon is running for SHARD_HOME=${home}; start one with \`shard daemon\``,
      };
    }
  }

  request(command: CliCommand, timeoutMs = DAEMON_REQUEST_TIMEOUT_MS): Promise<RequestResult> {
    if (this.closed || this.closing)
      return Promise.resolve({ ok: false, message: "the connection to the daemon is closed" });
    const id = `cli-${this.nextId++}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve({
          ok: false,
          message: `the daemon did not answer ${command.type} within ${timeoutMs / 1000} s`,
        });
      }, timeoutMs);
      this.waiting.set(id, (result) => {
        clearTimeout(timer);
        resolve(result);
      });
      this.write({ ...command, id });
    });
  }

  /** A command that gets no response (or whose response nobody waits for). */
  send(command: CliCommand): void {
    this.write(command);
  }

  close(): void {
    if (this.closed) return;
    // Nothing more goes out; the socket's close then settles whatever still waits.
    this.closing = true;
    this.socket.end();
  }

  private write(message: object): void {
    if (this.closing) return;
    this.socket.write(encodeJsonLine(message));
    this.socket.flush();
  }

  private received(value: unknown, events: Partial<DaemonStreamEvents>): void {
    const response = asResponse(value);
    const settle = response?.id !== undefined ? this.waiting.get(response.id) : undefined;
    if (response?.id !== undefined && settle !== undefined) {
      this.waiting.delete(response.id);
      settle({ ok: true, response });
      return;
    }
    events.message?.(value);
  }

  private lost(events: Partial<DaemonStreamEvents>): void {
    if (this.closed) return;
    this.closed = true;
    for (const settle of this.waiting.values()) {
      settle({ ok: false, message: "the daemon closed the connection before answering" });
    }
    this.waiting.clear();
    events.closed?.();
  }
}
