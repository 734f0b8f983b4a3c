/**
 * Requests to the running daemon for the CLI: one-shot (connect, ask, hang up) and the checked
 * form that prints the daemon's refusal as one line and returns the response data typed by its
 * schema (undefined after printing why).
 */
import type { Static, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { terminalLine } from "../terminal/terminal-text.ts";
import { failure } from "../wire/errors.ts";
import { type CliCommand, DaemonStream, type RequestResult } from "./daemon-stream.ts";

export type Requester = (command: CliCommand) => Promise<RequestResult>;

export async function daemonRequest(home: string, command: CliCommand): Promise<RequestResult> {
  const opened = await DaemonStream.open(home);
  if (!opened.ok) return failure("NOT_FOUND", opened.message);
  const result = await opened.stream.request(command);
  opened.stream.close();
  return result;
}

/** `name` prefixes the printed line (`shard auth: …`). */
export async function requestData<S extends TSchema>(
  name: string,
  requester: Requester,
  command: CliCommand,
  schema: S,
): Promise<Static<S> | undefined> {
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
  if (!Value.Check(schema, response.data)) {
    process.stderr.write(
      `${name}: the daemon answered in an unexpected shape; is it another shard version?\n`,
    );
    return undefined;
  }
  return response.data;
}
