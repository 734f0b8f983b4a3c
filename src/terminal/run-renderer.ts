/**
 * Protocol events as terminal text, for `shard run` and a later terminal view: the answer
 * (assistant text deltas) goes to one sink, one status line per tool call, denial, error and
 * retry to the other. Pure over the events it is given: no process globals, no decisions.
 *
 * Model text and tool output are untrusted. Status lines always escape control and bidi
 * characters; the answer does when it goes to a terminal (`escapeAnswer`), and stays byte-exact
 * when it goes to a pipe or file (docs/runtime.md).
 */
import type { AgentEvent } from "../types/catalog.ts";
import type { ToolResultContent } from "../types/messages.ts";
import type { PermissionRequest } from "../types/permissions.ts";
import type { Response } from "../types/response.ts";
import type { SandboxMode } from "../types/sandbox.ts";
import { PLAIN_STYLE, type TerminalStyle } from "./terminal-style.ts";
import { terminalLine, terminalText } from "./terminal-text.ts";

export type RenderedEvent = AgentEvent | Response;

export interface RunRendererOptions {
  /** The answer: assistant text, as it streams. */
  answer: (text: string) => void;
  /** Status lines, each ending in a newline. */
  status: (line: string) => void;
  /** Escape control and bidi characters in the answer too (it goes to a terminal). */
  escapeAnswer: boolean;
  /** Colours for the marks (default none). */
  style?: TerminalStyle;
  /** Also a line when a tool starts, not only when it ends (on a terminal). */
  toolStarts?: boolean;
  /** Called before anything is printed (a spinner clears its line). */
  beforeWrite?: () => void;
}

const ARG_CHARS = 100;
const ERROR_CHARS = 160;

export class RunRenderer {
  /** Labels of tool calls by id: a call denied or cut off before it ran gets no tool_call event. */
  private readonly toolLabels = new Map<string, string>();
  private answerEndsLine = true;

  constructor(private readonly options: RunRendererOptions) {}

  handle(event: RenderedEvent): void {
    switch (event.type) {
      case "message_delta":
        if (event.kind === "text" && event.text_delta !== undefined && event.text_delta !== "") {
          const text = event.text_delta;
          this.options.beforeWrite?.();
          this.options.answer(this.options.escapeAnswer ? terminalText(text) : text);
          this.answerEndsLine = text.endsWith("\n");
        }
        break;
      case "message_complete":
        for (const block of event.message.content) {
          if (block.type === "tool_call") this.toolLabels.set(block.id, toolLabel(block.name, block.args));
        }
        break;
      case "tool_call": {
        const label = toolLabel(event.name, event.args);
        this.toolLabels.set(event.tool_call_id, label);
        if (this.options.toolStarts === true) this.line(`${this.style.dim("▸")} ${label}`);
        break;
      }
      case "tool_result": {
        const label = this.toolLabels.get(event.tool_call_id) ?? event.tool_call_id;
        this.toolLabels.delete(event.tool_call_id);
        const exit = event.exit_code === undefined ? "" : ` exit ${event.exit_code}`;
        const ms = event.duration_ms === undefined ? "" : ` ${event.duration_ms}ms`;
        const why = event.is_error ? ` — ${errorText(event.content)}` : "";
        const mark = event.is_error ? this.style.fail("✗") : this.style.ok("✓");
        const confinement =
          event.sandbox === undefined ? "" : this.style.dim(` (${sandboxWord(event.sandbox)})`);
        this.line(`${mark} ${label}${exit}${ms}${confinement}${why}`);
        break;
      }

      case "status":
        // e.g. "retrying in 2 s, attempt 2/4: …" while the provider is retried. The detail of
        // status `error` repeats the fatal `error` event, which is printed already.
        if (event.status !== "error" && event.detail !== undefined && event.detail !== "")
          this.line(terminalLine(event.detail));
        break;
      case "error":
        this.line(`${this.style.fail("error:")} ${event.code}: ${terminalLine(event.message)}`);
        break;
      case "response":
        if (!event.success && event.error)
          this.line(`${this.style.fail("error:")} ${event.error.code}: ${terminalLine(event.error.message)}`);
        break;
    }
  }

  /** A permission request the caller refused; `hint` says how to allow it next time. */
  denied(request: PermissionRequest, hint: string): void {
    this.line(`${this.style.warn("denied:")} ${terminalLine(request.prompt)}${hint ? ` (${hint})` : ""}`);
  }

  /** A warning of Shard's own that must not be missed (e.g. no sandbox on this machine). */
  warning(label: string, text: string): void {
    this.end();
    this.line(`${this.style.warn(label)} ${terminalLine(text)}`);
  }

  /** A line of Shard's own (e.g. "aborted", the run's summary), dimmed with colour. */
  note(text: string): void {
    this.end();
    this.line(this.style.dim(text));
  }

  /** Whether the answer ended its line, so a spinner may draw at the line's start. */
  atLineStart(): boolean {
    return this.answerEndsLine;
  }

  /** Ends the answer with a newline when it did not, so the shell prompt starts on its own line. */
  end(): void {
    if (!this.answerEndsLine) this.options.answer("\n");
    this.answerEndsLine = true;
  }

  private get style(): TerminalStyle {
    return this.options.style ?? PLAIN_STYLE;
  }

  private line(text: string): void {
    this.options.beforeWrite?.();
    this.options.status(`${text}\n`);
  }
}

function sandboxWord(mode: SandboxMode): string {
  return mode === "off" ? "not sandboxed" : `sandboxed: ${mode}`;
}

/** `name main-arg`, one line, cut at ARG_CHARS, safe for a terminal. */
export function toolLabel(name: string, args: Record<string, unknown>): string {
  const main = args.command ?? args.path ?? args.pattern ?? args.question;
  const text = typeof main === "string" ? main : JSON.stringify(args);
  const summary = cut(text.replace(/\s+/g, " ").trim(), ARG_CHARS);
  return terminalLine(summary === "" ? name : `${name} ${summary}`);
}

/** The first line of a failed tool's result, cut at ERROR_CHARS, safe for a terminal. */
export function errorText(content: ToolResultContent): string {
  const text =
    content.kind === "error"
      ? content.message
      : content.kind === "text"
        ? content.text
        : (JSON.stringify(content.value) ?? "");
  return terminalLine(cut(text.split("\n")[0] ?? "", ERROR_CHARS));
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
