/**
 * `shard run "prompt"`: one-shot print mode for scripts. Streams the assistant text to
 * stdout and one line per tool call to stderr (or, with --json, every protocol event as
 * JSONL). Permission requests are answered by --allow / --yes, otherwise denied and reported.
 */

import { createRuntime, type RuntimeConfig } from "../agent/create-runtime.ts";
import { handleInbound } from "../agent/protocol/commands.ts";
import type { Connection } from "../contracts/connection.ts";
import type { Message } from "../types/shared.ts";
import { encodeJsonLine } from "../wire/jsonl-encoder.ts";
import { discoverModelIfNeeded, runtimeConfigFrom } from "./agent-command.ts";
import { BatchedWriter } from "./batched-writer.ts";
import { AGENT_FLAG_OPTIONS, parseFlags, UsageError } from "./flags.ts";

export const RUN_HELP = `Usage: shard run [options] "prompt"

Runs one prompt to completion and exits. The answer streams to stdout; each tool call is
summarized on stderr. Exit code 1 when the run failed, 2 for bad usage.

Options:
  --json                 print every protocol event as JSONL on stdout instead
  --allow TOOL[,TOOL]    answer permission requests for these tools with "allow"
  --yes                  allow every permission request
  (plus every option of 'shard agent': --cwd, --model, --mode, --session, --tools, ...)
`;

const RUN_FLAGS = {
  ...AGENT_FLAG_OPTIONS,
  json: { type: "boolean" },
  allow: { type: "string", multiple: true },
  yes: { type: "boolean", short: "y" },
} as const;

type Event = { type: string } & Record<string, unknown>;

export async function runCommand(argv: string[]): Promise<number> {
  let config: RuntimeConfig;
  let prompt: string;
  let json = false;
  let yes = false;
  const allowed = new Set<string>();
  try {
    const { values, positionals } = parseFlags(argv, RUN_FLAGS, true);
    if (values.help) {
      process.stdout.write(RUN_HELP);
      return 0;
    }
    prompt = positionals.join(" ").trim();
    if (prompt === "") throw new UsageError("a prompt is required");
    json = values.json === true;
    yes = values.yes === true;
    for (const list of values.allow ?? [])
      for (const t of list.split(",")) if (t.trim()) allowed.add(t.trim());
    config = runtimeConfigFrom(values, process.env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`shard run: ${err.message}\n${RUN_HELP}`);
    return 2;
  }

  await discoverModelIfNeeded(config);
  const created = createRuntime(config);
  if (!created.ok) {
    process.stderr.write(`shard run: ${created.error.code}: ${created.error.message}\n`);
    return 1;
  }
  const { runtime, warnings } = created.value;
  for (const w of warnings) process.stderr.write(`shard run: warning: ${w.message}\n`);

  const out = new BatchedWriter((s) => process.stdout.write(s));
  let failed = false;
  let endedWithText = true;
  let finish!: () => void;
  const finished = new Promise<void>((r) => {
    finish = r;
  });
  const pendingTools = new Map<string, string>();

  const connection: Connection = {
    id: "run",
    role: "interactive",
    send(message) {
      const event = message as Event;
      if (json) out.write(encodeJsonLine(event));
      switch (event.type) {
        case "message_delta":
          if (!json && event.kind === "text" && typeof event.text_delta === "string") {
            out.write(event.text_delta);
            endedWithText = event.text_delta.endsWith("\n");
          }
          break;
        case "message_complete":
          // A call denied or cut off before it ran gets no tool_call event; label it from the message.
          for (const block of (event.message as Message).content) {
            if (block.type === "tool_call")
              pendingTools.set(block.id, `${block.name} ${summarizeArgs(block.args)}`);
          }
          break;
        case "tool_call":
          pendingTools.set(event.tool_call_id as string, `${event.name} ${summarizeArgs(event.args)}`);
          break;
        case "tool_result":
          if (!json) {
            const label = pendingTools.get(event.tool_call_id as string) ?? String(event.tool_call_id);
            const exit = event.exit_code === undefined ? "" : ` exit ${event.exit_code}`;
            const ms = event.duration_ms === undefined ? "" : ` ${event.duration_ms}ms`;
            const mark = event.is_error ? "✗" : "✓";
            const why = event.is_error ? ` — ${errorText(event.content)}` : "";
            process.stderr.write(`${mark} ${label}${exit}${ms}${why}\n`);
          }
          break;
        case "permission_request": {
          const tool = event.tool_name as string;
          const allow = yes || allowed.has(tool);
          if (!allow) {
            process.stderr.write(`denied: ${event.prompt} (use --allow ${tool} or --yes to allow)\n`);
          }
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
        case "status":
          // Progress the user would otherwise wait through in silence, e.g. "retrying in 2 s, …".
          if (!json && typeof event.detail === "string") process.stderr.write(`${event.detail}\n`);
          break;
        case "error":
          failed = true;
          if (!json) process.stderr.write(`error: ${event.code}: ${event.message}\n`);
          break;
        case "response":
          if (event.success === false) {
            failed = true;
            const err = event.error as { code: string; message: string };
            process.stderr.write(`error: ${err.code}: ${err.message}\n`);
            finish();
          }
          break;
        case "turn_end":
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
    process.stderr.write("\ninterrupted: aborting\n");
    void runtime.abort().then(finish);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("SIGHUP", onSignal);
  runtime.attach(connection);
  await handleInbound(runtime, connection, { type: "prompt", id: "run", message: prompt });
  await finished;
  await runtime.close();
  process.off("SIGINT", onSignal);
  process.off("SIGTERM", onSignal);
  process.off("SIGHUP", onSignal);
  if (!json && !endedWithText) out.write("\n");
  await out.flush();
  if (!json) process.stderr.write(`session: ${runtime.session.sessionId}\n`);
  if (interrupted) return 130;
  return failed ? 1 : 0;
}

function summarizeArgs(args: unknown): string {
  if (!args || typeof args !== "object") return "";
  const a = args as Record<string, unknown>;
  const main = a.command ?? a.path ?? a.pattern ?? a.question;
  const text = typeof main === "string" ? main : JSON.stringify(a);
  const oneLine = text.replace(/\s+/g, " ");
  return oneLine.length > 100 ? `${oneLine.slice(0, 97)}...` : oneLine;
}

function errorText(content: unknown): string {
  const c = content as { kind?: string; message?: string; text?: string };
  const text = c?.message ?? c?.text ?? "";
  const first = text.split("\n")[0] ?? "";
  return first.length > 160 ? `${first.slice(0, 157)}...` : first;
}
