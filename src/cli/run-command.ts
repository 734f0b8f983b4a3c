/**
 * `shard run "prompt"`: one-shot print mode for scripts. Argument parsing and wiring only:
 * the terminal text comes from src/terminal/run-renderer.ts (or, with --json, every protocol
 * event is printed as JSONL). Permission requests are answered by --allow / --yes, otherwise
 * denied and reported.
 */

import { createRuntime, type RuntimeConfig } from "../agent/create-runtime.ts";
import { handleInbound } from "../agent/protocol/commands.ts";
import type { Connection } from "../contracts/connection.ts";
import { TurnErrorWatch } from "../snapshot/turn-error.ts";
import { startTelemetry, stopTelemetry } from "../telemetry/telemetry.ts";
import { RunRenderer } from "../terminal/run-renderer.ts";
import { runSummary, UsageTotals } from "../terminal/run-summary.ts";
import { onOwnLine, Spinner } from "../terminal/spinner.ts";
import { colourWanted, terminalStyle } from "../terminal/terminal-style.ts";
import { terminalLine } from "../terminal/terminal-text.ts";
import { encodeJsonLine } from "../wire/jsonl-encoder.ts";
import { discoverModelIfNeeded, runtimeConfigFrom, usageErrorOf } from "./agent-command.ts";
import { parseAllowList, unknownAllowed } from "./allow-list.ts";
import { BatchedWriter } from "./batched-writer.ts";
import { AGENT_FLAG_OPTIONS, parseFlags, reportUsageError, UsageError } from "./flags.ts";
import { readPrompt } from "./prompt-input.ts";

export const RUN_HELP = `Usage: shard run [options] "prompt"
       echo "prompt" | shard run [options]      (or: shard run [options] - )

Runs one prompt to completion and exits. The answer streams to stdout; each tool call is
summarized on stderr, and the session id is printed there at the end. On a terminal: colour
(NO_COLOR turns it off, FORCE_COLOR on), a line as each tool starts, a spinner with the time
while the model works, and one closing line with tokens, cost, time and session.

Exit codes: 0 done; 1 the run failed; 2 bad usage; 3 a tool call was denied (not allowed by
--allow / --yes); 130 interrupted (Ctrl-C).

Options:
  --json                 print every protocol event as JSONL on stdout instead
  --allow TOOL[,TOOL]    answer permission requests for these tools with "allow" (repeatable)
  -y, --yes              allow every permission request
  (plus every option of 'shard agent': --cwd, --model, --mode, --session, --tools, ...)
`;

const RUN_FLAGS = {
  ...AGENT_FLAG_OPTIONS,
  json: { type: "boolean" },
  allow: { type: "string", multiple: true },
  yes: { type: "boolean", short: "y" },
} as const;

export async function runCommand(argv: string[]): Promise<number> {
  let config: RuntimeConfig;
  let prompt: string;
  let json = false;
  let yes = false;
  let allowed: Set<string>;
  let flags: ReturnType<typeof parseFlags<typeof RUN_FLAGS>>["values"];
  try {
    const { values, positionals } = parseFlags(argv, RUN_FLAGS, true);
    if (values.help) {
      process.stdout.write(RUN_HELP);
      return 0;
    }
    flags = values;
    json = values.json === true;
    yes = values.yes === true;
    allowed = parseAllowList(values.allow ?? []);
    config = runtimeConfigFrom(values, process.env);
    prompt = await readPrompt(positionals, {
      stdinIsTty: process.stdin.isTTY === true,
      stdin: () => Bun.stdin.stream(),
    });
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return reportUsageError("run", err.message);
  }

  await discoverModelIfNeeded(config);
  // OpenTelemetry loads only when the OTEL_* variables ask for it (docs/telemetry.md).
  await startTelemetry(process.env, "run", config.serverVersion, (message) =>
    process.stderr.write(`shard run: warning: ${terminalLine(message)}\n`),
  );
  const created = createRuntime(config);
  if (!created.ok) {
    const usage = usageErrorOf(created, flags);
    if (usage !== undefined) return reportUsageError("run", usage);
    process.stderr.write(`shard run: ${created.error.code}: ${terminalLine(created.error.message)}\n`);
    return 1;
  }
  const { runtime, warnings } = created.value;
  // Checked against the tools this run really has (after --tools), so no list is kept twice.
  const unknownTools = unknownAllowed(allowed, [...runtime.tools.keys()]);
  if (unknownTools !== undefined) {
    await runtime.close();
    return reportUsageError("run", unknownTools);
  }
  for (const w of warnings) process.stderr.write(`shard run: warning: ${terminalLine(w.message)}\n`);

  const out = new BatchedWriter((s) => process.stdout.write(s));
  // Status lines go to stderr: what a person sees there decides colour, tool starts and spinner.
  const onTerminal = !json && process.stderr.isTTY === true;
  const spinner = onTerminal
    ? new Spinner({
        ...onOwnLine((text) => process.stderr.write(text)),
        mayDraw: () => renderer.atLineStart(),
      })
    : undefined;
  const renderer: RunRenderer = new RunRenderer({
    answer: (text) => out.write(text),
    status: (line) => process.stderr.write(line),
    // Raw bytes for a pipe or file (scripts get exactly what the model wrote); escaped for a terminal.
    escapeAnswer: process.stdout.isTTY === true,
    style: terminalStyle(colourWanted(process.stderr.isTTY === true, process.env)),
    toolStarts: onTerminal,
    ...(spinner !== undefined ? { beforeWrite: () => spinner.clear() } : {}),
  });
  const usage = new UsageTotals();
  const startedAt = performance.now();
  let failed = false;
  let denied = false;
  // A non-fatal error is a warning unless it is what ended the turn.
  const turnErrors = new TurnErrorWatch();
  let finish!: () => void;
  const finished = new Promise<void>((r) => {
    finish = r;
  });

  const connection: Connection = {
    id: "run",
    send(event) {
      if (json) out.write(encodeJsonLine(event));
      else renderer.handle(event);
      const endsTurnWithError = event.type !== "response" && turnErrors.event(event) !== undefined;
      switch (event.type) {
        case "permission_request": {
          const tool = event.tool_name;
          // A project's .mcp.json is trusted only by a person's choice (docs/mcp.md): a run
          // answers for nobody, which is not a denied tool call (the agent warns instead).
          if (tool === "mcp_trust") {
            queueMicrotask(() =>
              handleInbound(runtime, connection, {
                type: "permission_response",
                request_id: event.request_id,
                decision: "deny",
                source: "shard run",
                reason: "shard run: nobody to trust the project's MCP servers",
              }),
            );
            break;
          }
          const allow = yes || allowed.has(tool);
          if (!allow) denied = true;
          if (!allow && !json) renderer.denied(event, `use --allow ${tool} or --yes to allow`);
          queueMicrotask(() =>
            handleInbound(runtime, connection, {
              type: "permission_response",
              request_id: event.request_id,
              decision: allow ? "allow" : "deny",
              reason: allow ? "shard run --allow" : "shard run: not allowed by --allow/--yes",
            }),
          );
          break;
        }
        case "ui_request":
          queueMicrotask(() =>
            handleInbound(runtime, connection, {
              type: "ui_response",
              request_id: event.request_id,
              value: null,
            }),
          );
          break;
        case "usage":
          usage.add(event);
          break;
        case "error":
          if (event.fatal === true) failed = true;
          break;
        case "response":
          if (!event.success) {
            failed = true;
            finish();
          }
          break;
        case "turn_end":
          if (endsTurnWithError) failed = true;
          finish();
          break;
      }
    },
  };

  // Ctrl-C aborts the turn (killing a running bash process group) instead of orphaning it.
  // The handlers stay installed until the runtime is closed: a second Ctrl-C must not kill
  // the process (and orphan the group) while the first one is still cleaning up.
  let interrupted = false;
  const onSignal = () => {
    if (interrupted) return;
    interrupted = true;
    spinner?.clear();
    process.stderr.write("\ninterrupted: aborting\n");
    void runtime.abort("signal").then(finish);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("SIGHUP", onSignal);
  runtime.attach(connection);
  spinner?.start();
  await handleInbound(runtime, connection, { type: "prompt", id: "run", message: prompt });
  await finished;
  spinner?.stop();
  await runtime.close();
  // The last spans and metrics, bounded (a dead collector cannot hold the exit).
  await stopTelemetry();
  process.off("SIGINT", onSignal);
  process.off("SIGTERM", onSignal);
  process.off("SIGHUP", onSignal);
  if (!json) renderer.end();
  await out.flush();
  if (interrupted && !json) renderer.note("aborted");
  if (onTerminal) {
    renderer.note(runSummary(usage, performance.now() - startedAt, runtime.session.sessionId));
  } else {
    // Also with --json: stdout is the event stream, and the id is what --session resumes.
    process.stderr.write(`session: ${runtime.session.sessionId}\n`);
  }
  if (interrupted) return 130;
  if (failed) return 1;
  return denied ? 3 : 0;
}
