/**
 * `shard attach <agent> [--observe]`: a terminal view of one agent on the running daemon. The
 * answer streams to stdout, tool lines and prompts to stderr; permission requests are answered
 * by typing; other lines become prompts (`/steer …`, `/abort`, `/checkpoints`, `/undo`,
 * `/rewind`, `/restore`). Ctrl-D detaches.
 */

import { shardHome } from "../support/shard-home.ts";
import { Spinner } from "../terminal/spinner.ts";
import { colourWanted, terminalStyle } from "../terminal/terminal-style.ts";
import { terminalLine } from "../terminal/terminal-text.ts";
import { asAgentEvent } from "../wire/validate.ts";
import { AttachScreen } from "./attach-screen.ts";
import { AttachSession } from "./attach-session.ts";
import { requestResult } from "./daemon-request.ts";
import { DaemonStream } from "./daemon-stream.ts";
import { parseFlags, reportUsageError, UsageError } from "./flags.ts";
import { resolveAgent } from "./resolve-agent.ts";
import { stdinLines } from "./stdin-lines.ts";

export const ATTACH_HELP = `Usage: shard attach <agent> [--observe]

Watches one agent of the running daemon: its answer streams to stdout, tool calls and
permission prompts to stderr. <agent> is an agent id, a unique id prefix, or a unique name
(shard ls lists them).

Type a number (or y / a / n) to answer a permission prompt. Any other line is sent as a
prompt (a follow-up while a turn runs); "/steer <text>" steers the running turn, "/abort"
aborts it. "/checkpoints" lists the checkpoints taken before the turns that changed files;
"/undo" puts the files back as they were before the last such turn (asking before it
overwrites a file changed since); typed again, it goes one more turn back. "/rewind" does the
same to the files and the conversation: the agent continues from before that turn.
"/restore <id> [--conversation]" restores one checkpoint by id (or a unique prefix). Other lines starting with "/" are sent as prompts. Ctrl-D detaches; the agent keeps running. On a terminal a spinner shows while a
turn runs, on its own line above the line you type (Ctrl-C detaches there too).

  --observe   watch only: never answer permission prompts or send anything
`;

const OPTIONS = { observe: { type: "boolean" }, help: { type: "boolean", short: "h" } } as const;
const NAME = "shard attach";

export async function attachCommand(argv: string[]): Promise<number> {
  let target: string;
  let observe = false;
  try {
    const { values, positionals } = parseFlags(argv, OPTIONS, true);
    if (values.help) {
      process.stdout.write(ATTACH_HELP);
      return 0;
    }
    if (positionals.length !== 1 || positionals[0] === undefined) {
      throw new UsageError("name one agent (shard ls lists them)");
    }
    target = positionals[0];
    observe = values.observe === true;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return reportUsageError("attach", err.message);
  }

  let session: AttachSession | undefined;
  let agentId = "";
  let lost!: () => void;
  const connectionLost = new Promise<"lost">((resolve) => {
    lost = () => resolve("lost");
  });
  const opened = await DaemonStream.open(shardHome(process.env), {
    message: (value) => {
      const event = asAgentEvent(value);
      if (event !== undefined && "agent_id" in event && event.agent_id === agentId) session?.handle(event);
    },
    closed: () => lost(),
  });
  if (!opened.ok) {
    process.stderr.write(`${NAME}: ${opened.message}\n`);
    return 1;
  }
  const stream = opened.stream;
  const request = stream.request.bind(stream);

  const list = await requestResult(NAME, request, { type: "agent.list" });
  if (list === undefined) return closeWith(stream, 1);
  const found = resolveAgent(list.agents, target);
  if (typeof found === "string") {
    process.stderr.write(`${NAME}: ${terminalLine(found)}\n`);
    return closeWith(stream, 1);
  }
  agentId = found.agent_id;
  // On a terminal (stderr is a TTY, as for `shard run`) the output, a spinner and the line being
  // typed share the screen through one AttachScreen; elsewhere the streams are written as they are.
  const onTerminal = process.stderr.isTTY === true;
  const screen = onTerminal
    ? new AttachScreen({ answer: process.stdout, status: process.stderr })
    : undefined;
  const answer = screen
    ? (text: string) => screen.answer(text)
    : (text: string) => process.stdout.write(text);
  const status = screen
    ? (text: string) => screen.status(text)
    : (text: string) => process.stderr.write(text);
  const spinner = screen
    ? new Spinner({
        draw: (frame) => screen.setStatus(frame),
        erase: () => screen.setStatus(undefined),
        mayDraw: () => screen.atLineStart() && session?.asking() !== true,
      })
    : undefined;
  session = new AttachSession(
    agentId,
    !observe,
    {
      answer,
      status,
      request,
      // Sent as requests, so a refusal (a leased child's CONFLICT, a stopped runtime) is shown.
      send: (command) =>
        void stream.request(command).then((result) => {
          const why = !result.ok
            ? result.error.message
            : result.response.success
              ? undefined
              : `${result.response.error?.code}: ${result.response.error?.message}`;
          if (why !== undefined) status(`${NAME}: ${command.type}: ${terminalLine(why)}\n`);
        }),
    },
    {
      escapeAnswer: process.stdout.isTTY === true,
      style: terminalStyle(colourWanted(process.stderr.isTTY === true, process.env)),
      toolStarts: onTerminal,
      ...(spinner !== undefined ? { spinner } : {}),
    },
  );
  const role = observe ? "observer" : "interactive";
  const attached = await requestResult(NAME, request, { type: "agent.attach", agent_id: agentId, role });
  if (attached === undefined) {
    spinner?.stop();
    return closeWith(stream, 1);
  }
  const label = terminalLine(found.display_name ?? found.name ?? agentId);
  status(`attached to ${label} (${agentId}, ${attached.status}); Ctrl-D detaches\n`);

  const typed = (async () => {
    // With a terminal on stdin too, readline edits the line so output can be drawn around it.
    if (screen !== undefined && process.stdin.isTTY === true)
      await screen.readLines(process.stdin, (line) => session.input(line));
    else for await (const line of stdinLines()) session.input(line);
    return "detached" as const;
  })();
  const how = await Promise.race([typed, connectionLost]);
  spinner?.stop();
  screen?.close();
  if (how === "lost") {
    process.stderr.write(`${NAME}: the daemon closed the connection\n`);
    return 1;
  }
  await request({ type: "agent.detach", agent_id: agentId });
  return closeWith(stream, 0);
}

function closeWith(stream: DaemonStream, code: number): number {
  stream.close();
  return code;
}
