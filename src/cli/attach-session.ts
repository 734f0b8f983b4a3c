/**
 * What `shard attach` does with one agent's stream: the answer and tool lines through the
 * same renderer as `shard run`, open permission and UI requests asked one at a time on the
 * terminal, and typed lines turned into commands. A request answered by another client is
 * dropped with a note; observers never answer. On a terminal a spinner runs while a turn does.
 */

import { formatPermissionPrompt, parsePermissionAnswer } from "../terminal/permission-prompt.ts";
import { RunRenderer, type RunRendererOptions } from "../terminal/run-renderer.ts";
import { turnSummary } from "../terminal/run-summary.ts";
import { terminalLine } from "../terminal/terminal-text.ts";
import { formatUiPrompt, parseUiAnswer } from "../terminal/ui-prompt.ts";
import type { AgentStatus } from "../types/agent-state.ts";
import type { AgentEvent } from "../types/catalog.ts";
import type { PermissionRequest, UiRequest } from "../types/permissions.ts";
import { AttachCheckpoints, type AttachRequester } from "./attach-checkpoints.ts";
import type { CliCommand } from "./daemon-stream.ts";

export interface AttachIo {
  answer(text: string): void;
  status(text: string): void;
  send(command: CliCommand): void;
  /** A command whose answer the session reads (`/checkpoints`, `/undo`, `/rewind`, `/restore`). */
  request: AttachRequester;
}

/** The "still working" spinner (src/terminal/spinner.ts): runs from a turn's start to its end. */
export interface TurnSpinner {
  start(): void;
  /** Something prints: the spinner gives way until the output is quiet again. */
  clear(): void;
  stop(): void;
}

export interface AttachDisplay extends Pick<RunRendererOptions, "escapeAnswer" | "style" | "toolStarts"> {
  spinner?: TurnSpinner;
}

export class AttachSession {
  private readonly renderer: RunRenderer;
  private readonly pending: (PermissionRequest | UiRequest)[] = [];
  private status: AgentStatus = "idle";
  private turnStartedAt: number | undefined;
  private readonly summaries: boolean;
  private readonly spinner: TurnSpinner | undefined;
  private readonly checkpoints: AttachCheckpoints;

  constructor(
    private readonly agentId: string,
    private readonly interactive: boolean,
    private readonly io: AttachIo,
    { spinner, ...display }: AttachDisplay,
  ) {
    const spinning = spinner !== undefined ? { beforeWrite: () => spinner.clear() } : {};
    this.renderer = new RunRenderer({ answer: io.answer, status: io.status, ...display, ...spinning });
    this.summaries = display.toolStarts === true;
    this.spinner = spinner;
    this.checkpoints = new AttachCheckpoints(agentId, io.request, io.status);
  }

  /** Whether a permission or UI request waits for an answer (no spinner then: it is the user's turn). */
  asking(): boolean {
    return this.pending.length > 0;
  }

  handle(event: AgentEvent): void {
    switch (event.type) {
      case "sync":
        this.status = event.status;
        // Attached mid-turn: the spinner counts from now.
        if (busy(event.status)) this.spinner?.start();
        else this.spinner?.stop();
        this.pending.length = 0;
        for (const request of event.pending_requests) this.ask(request);
        // An agent that wanted a sandbox this machine cannot give: never silently unconfined.
        if (event.sandbox?.unavailable !== undefined)
          this.renderer.warning("no sandbox:", `commands run unconfined (${event.sandbox.unavailable})`);
        return;
      case "status":
        this.status = event.status;
        if (!busy(event.status)) this.spinner?.stop();
        return;
      case "permission_request":
      case "ui_request":
        this.ask(event);
        return;
      case "permission_resolved": {
        const by = event.source !== undefined ? ` (${terminalLine(event.source)})` : "";
        this.resolved(
          event.request_id,
          `permission answered from another client${by}: ${event.choice_id ?? event.decision ?? ""}`,
        );
        return;
      }
      case "ui_resolved":
        this.resolved(event.request_id, "dialog answered from another client");
        return;
      case "turn_start":
        this.turnStartedAt = performance.now();
        this.spinner?.start();
        this.renderer.handle(event);
        return;
      case "turn_end":
        this.spinner?.stop();
        this.renderer.handle(event);
        this.renderer.end();
        // On a terminal each turn ends with its tokens, cost and time, like `shard run`.
        if (this.summaries && event.usage !== undefined && this.turnStartedAt !== undefined)
          this.renderer.note(turnSummary(event.usage, performance.now() - this.turnStartedAt));
        this.turnStartedAt = undefined;
        return;
      default:
        this.renderer.handle(event);
    }
  }

  /**
   * A typed line: the answer to "overwrite? [y/N]" or to the open permission request, else a
   * command or a prompt. A line starting with `/` that is no command here is sent as a prompt.
   */
  input(line: string): void {
    if (!this.interactive) {
      this.io.status("observing: typed lines are ignored (attach without --observe to answer or prompt)\n");
      return;
    }
    if (this.checkpoints.asking()) {
      void this.checkpoints.answer(line);
      return;
    }
    const request = this.pending[0];
    if (request !== undefined) {
      const answer = this.answerTo(request, line);
      if (answer === undefined) {
        this.io.status(
          request.type === "ui_request" ? formatUiPrompt(request) : formatPermissionPrompt(request),
        );
        return;
      }
      this.pending.shift();
      this.io.send(answer);
      this.showNext(true);
      return;
    }
    const text = line.trim();
    if (text === "") return;
    if (text === "/abort") {
      this.io.send({ type: "abort", agent_id: this.agentId });
      return;
    }
    if (text === "/checkpoints") {
      void this.checkpoints.list();
      return;
    }
    if (text === "/undo" || text === "/rewind") {
      void this.checkpoints.back(text);
      return;
    }
    if (text === "/restore" || text.startsWith("/restore ")) {
      void this.checkpoints.restoreById(text.slice("/restore".length));
      return;
    }
    if (text.startsWith("/steer ")) {
      this.io.send({ type: "steer", agent_id: this.agentId, message: text.slice(7) });
      return;
    }
    this.io.send(
      busy(this.status)
        ? { type: "prompt", agent_id: this.agentId, message: line, streaming_behavior: "follow_up" }
        : { type: "prompt", agent_id: this.agentId, message: line },
    );
  }

  /** The response a typed line makes to the open request, or undefined when it answers nothing. */
  private answerTo(request: PermissionRequest | UiRequest, line: string): CliCommand | undefined {
    const target = { agent_id: this.agentId, request_id: request.request_id };
    if (request.type === "ui_request") {
      const answer = parseUiAnswer(request, line);
      return answer && { type: "ui_response", ...target, ...answer };
    }
    const answer = parsePermissionAnswer(request, line);
    return answer && { type: "permission_response", ...target, ...answer };
  }

  private ask(request: PermissionRequest | UiRequest): void {
    if (this.pending.some((r) => r.request_id === request.request_id)) return;
    this.pending.push(request);
    if (this.pending.length === 1) this.showNext(true);
  }

  /** Another client answered: drop the request, say so, and ask the next one if it was showing. */
  private resolved(requestId: string, note: string): void {
    const index = this.pending.findIndex((r) => r.request_id === requestId);
    if (index < 0) return;
    this.pending.splice(index, 1);
    this.io.status(`${note}\n`);
    this.showNext(index === 0);
  }

  private showNext(headChanged: boolean): void {
    const next = this.pending[0];
    if (next === undefined || !headChanged) return;
    this.spinner?.clear();
    this.renderer.end();
    if (next.type === "ui_request") {
      this.io.status(
        this.interactive
          ? formatUiPrompt(next)
          : `waiting for an answer: ${terminalLine(next.title ?? next.kind)}\n`,
      );
      return;
    }
    this.io.status(
      this.interactive
        ? formatPermissionPrompt(next)
        : `waiting for permission: ${terminalLine(next.prompt)}\n`,
    );
  }
}

function busy(status: AgentStatus): boolean {
  return status !== "idle" && status !== "error";
}
