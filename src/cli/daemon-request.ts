/**
 * Requests to the running daemon for the CLI: one-shot (connect, ask, hang up) and the checked
 * form that prints the daemon's refusal as one line and returns the result typed by the
 * command table (undefined after printing why).
 */
import { type CallOf, checkResult } from "../client/command-result.ts";
import type { Command } from "../client/request-channel.ts";
import { terminalLine } from "../terminal/terminal-text.ts";
import type { CommandType, ResultMap } from "../types/command-table.ts";
import { failure } from "../wire/errors.ts";
import { sharedCheck } from "../wire/schema-check.ts";
import { DaemonStream, type RequestResult } from "./daemon-stream.ts";

export type Requester = (command: Command) => Promise<RequestResult>;

export async function daemonRequest(home: string, command: Command): Promise<RequestResult> {
  const opened = await DaemonStream.open(home);
  if (!opened.ok) return failure("NOT_FOUND", opened.message);
  const result = await opened.stream.request(command);
  opened.stream.close();
  return result;
}

/** `name` prefixes the printed line (`shard auth: …`). */
export async function requestResult<T extends CommandType>(
  name: string,
  requester: Requester,
  command: CallOf<T>,
): Promise<ResultMap[T] | undefined> {
  const result = await requester(command);
  if (!result.ok) {
    process.stderr.write(`${name}: ${terminalLine(result.error.message)}\n`);
    return undefined;
  }
  const { response } = result;
  if (!response.success) {
    const error = response.error;
    process.stderr.write(
      `${name}: ${terminalLine(error ? `${error.code}: ${error.message}` : "the daemon refused")}\n`,
    );
    return undefined;
  }
  const checked = checkResult(command.type, response.data, sharedCheck);
  if (!checked.ok) {
    process.stderr.write(`${name}: ${terminalLine(checked.error.message)}\n`);
    return undefined;
  }
  return checked.result;
}
