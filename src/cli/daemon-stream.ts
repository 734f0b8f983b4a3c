/**
 * A live connection to the running daemon over its unix socket (local trust), on the shared
 * request channel (src/client): requests answered by `id` within a timeout, every other
 * message handed to `onMessage`. Used by the CLI's daemon commands (`shard ls`, `shard attach`,
 * `shard auth`).
 */
import { join } from "node:path";
import { type ChannelResult, type Command, RequestChannel } from "../client/request-channel.ts";
import { unixSocketConnect } from "../client/unix-socket-connect.ts";
import type { OutboundCommand } from "../types/command-table.ts";
import { asResponse } from "../wire/validate.ts";

export type CliCommand = OutboundCommand;

export type RequestResult = ChannelResult;

interface DaemonStreamEvents {
  message(message: unknown): void;
  closed(): void;
}

export class DaemonStream {
  private constructor(private readonly channel: RequestChannel) {}

  static async open(
    home: string,
    events: Partial<DaemonStreamEvents> = {},
  ): Promise<{ ok: true; stream: DaemonStream } | { ok: false; message: string }> {
    const channel = new RequestChannel(
      { connect: unixSocketConnect(join(home, "daemon.sock")), idPrefix: "cli-", readResponse: asResponse },
      {
        message: (value) => events.message?.(value),
        state: (state) => {
          if (state.kind === "closed") events.closed?.();
        },
      },
    );
    const opened = await channel.open();
    if (!opened.ok) {
      return {
        ok: false,
        message: `no daemon is running for SHARD_HOME=${home}; start one with \`shard daemon\``,
      };
    }
    return { ok: true, stream: new DaemonStream(channel) };
  }

  /** Any command: typed where it is built (`CliCommand`, or `CallOf` for a typed result). */
  request(command: Command, timeoutMs?: number): Promise<RequestResult> {
    return this.channel.request(command, timeoutMs === undefined ? {} : { timeoutMs });
  }

  /** A command that gets no response (or whose response nobody waits for). */
  send(command: CliCommand): void {
    this.channel.send(command);
  }

  /** Nothing more goes out; whatever still waits settles now. */
  close(): void {
    this.channel.close("the CLI closed the connection");
  }
}
