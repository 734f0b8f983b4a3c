/**
 * `shard daemon stop [--force]`: sends `daemon.shutdown` over the unix socket (only a local
 * client may) and returns once the daemon has closed the connection on its way out.
 */
import { shardHome } from "../support/shard-home.ts";
import { terminalLine } from "../terminal/terminal-text.ts";
import { DaemonStream } from "./daemon-stream.ts";
import { parseFlags, reportUsageError, UsageError } from "./flags.ts";

export const DAEMON_STOP_HELP = `Usage: shard daemon stop [--force]

Stops the daemon of $SHARD_HOME (daemon.shutdown over $SHARD_HOME/daemon.sock) and waits until
it has exited. Running turns get a few seconds to finish; a runtime waiting for an answer
stops at once and asks again after the next start. --force kills every runtime at once.
`;

const OPTIONS = { force: { type: "boolean" }, help: { type: "boolean", short: "h" } } as const;

export async function daemonStopCommand(argv: string[]): Promise<number> {
  let force: boolean;
  try {
    const { values } = parseFlags(argv, OPTIONS, false);
    if (values.help) {
      process.stdout.write(DAEMON_STOP_HELP);
      return 0;
    }
    force = values.force === true;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return reportUsageError("daemon stop", err.message);
  }
  const home = shardHome(process.env);
  let closed!: () => void;
  const gone = new Promise<void>((resolve) => {
    closed = resolve;
  });
  const opened = await DaemonStream.open(home, { closed: () => closed() });
  if (!opened.ok) {
    process.stderr.write(`shard daemon stop: ${terminalLine(opened.message)}\n`);
    return 1;
  }
  const result = await opened.stream.request({ type: "daemon.shutdown", ...(force ? { force } : {}) });
  const refusal = !result.ok
    ? result.error.message
    : !result.response.success
      ? `${result.response.error?.code ?? "refused"}: ${result.response.error?.message ?? "the daemon refused"}`
      : undefined;
  if (refusal !== undefined) {
    opened.stream.close();
    process.stderr.write(`shard daemon stop: ${terminalLine(refusal)}\n`);
    return 1;
  }
  // The daemon closes every connection as its last step: then it has stopped.
  await gone;
  process.stdout.write("daemon stopped\n");
  return 0;
}
