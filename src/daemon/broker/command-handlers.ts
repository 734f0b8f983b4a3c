/**
 * The daemon's command handlers: one per daemon-answered command of the command table
 * (src/types/command-table.ts), registered by their subsystems from daemon.ts. A handler's
 * return value *is* the response: the broker turns it into `response` and sends it, so no
 * handler can answer with data its command's result schema does not allow.
 */
import type {
  CommandMap,
  CommandOwner,
  CommandTypeOwnedBy,
  DaemonCommandType,
  ResultMap,
} from "../../types/command-table.ts";
import type { Failure } from "../../wire/errors.ts";
import type { ClientConnection } from "./client-connection.ts";

/** What a handler answers: its command's result, or `{code, message}`. */
export type Answer<R> = Success<R> | Failure;

export interface Success<R> {
  ok: true;
  result: R;
  /** Runs right after the response is sent, in the same tick (e.g. `sync` after `agent.attach`). */
  after?: () => void;
}

/**
 * An answer that comes when long work ends (`subagent.wait`): the commands behind it on the same
 * connection are handled meanwhile, since a connection's commands are otherwise taken in order.
 */
export interface Later<R> {
  later: Promise<Answer<R>>;
}

export type Outcome<R> = Answer<R> | Later<R>;

export function isLater<R>(outcome: Outcome<R>): outcome is Later<R> {
  return "later" in outcome;
}

export function answer<R>(result: R, after?: () => void): Success<R> {
  return after ? { ok: true, result, after } : { ok: true, result };
}

export type CommandHandler<T extends DaemonCommandType> = (
  client: ClientConnection,
  command: CommandMap[T],
) => Outcome<ResultMap[T]> | Promise<Outcome<ResultMap[T]>>;

/** Every daemon command's handler: the daemon does not start without all of them. */
export type DaemonHandlers = { [T in DaemonCommandType]: CommandHandler<T> };

/** The handlers one subsystem registers. */
export type HandlersOf<O extends Exclude<CommandOwner, "runtime">> = {
  [T in Extract<CommandTypeOwnedBy<O>, DaemonCommandType>]: CommandHandler<T>;
};

/** Runs the handler of `type` (the pattern that keeps command and handler correlated). */
export function runHandler<T extends DaemonCommandType>(
  handlers: DaemonHandlers,
  client: ClientConnection,
  type: T,
  command: CommandMap[T],
): Outcome<ResultMap[T]> | Promise<Outcome<ResultMap[T]>> {
  const handler: CommandHandler<T> = handlers[type];
  return handler(client, command);
}
