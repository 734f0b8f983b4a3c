/**
 * Shard events as ACP `session/update`s (the table in docs/acp.md): text and thinking deltas
 * as message and thought chunks, each tool call announced when the model's message completes
 * (`pending`), `in_progress` once the gate let it run, its live output and its result (diff,
 * output) as `tool_call_update`s; mode and model changes; usage against the context window.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { AgentSnapshot } from "../snapshot/agent-snapshot.ts";
import type { AgentEvent } from "../types/catalog.ts";
import type { PermissionRequest } from "../types/permissions.ts";
import {
  outputContent,
  resultContent,
  SHOWN_OUTPUT_MAX_CHARS,
  type ToolCallView,
  textContent,
  toolCallView,
} from "./tool-call-view.ts";

interface TrackedCall {
  name: string;
  args: Record<string, unknown>;
  view: ToolCallView;
  state: "pending" | "in_progress" | "done";
  tail: string;
}

/** Calls remembered per session for their updates; the oldest finished ones are dropped past this. */
const TRACKED_CALLS_MAX = 512;

export class UpdateMapper {
  private readonly calls = new Map<string, TrackedCall>();

  constructor(private readonly cwd: string) {}

  updates(event: AgentEvent, snapshot: AgentSnapshot | undefined): acp.SessionUpdate[] {
    switch (event.type) {
      case "message_delta": {
        if (event.text_delta === undefined || event.text_delta === "") return [];
        if (event.kind === "tool_call") return [];
        return [
          {
            sessionUpdate: event.kind === "thinking" ? "agent_thought_chunk" : "agent_message_chunk",
            content: { type: "text", text: event.text_delta },
            messageId: event.message_id,
          },
        ];
      }
      case "message_complete": {
        if (event.message.role !== "assistant") return [];
        const out: acp.SessionUpdate[] = [];
        for (const block of event.message.content) {
          if (block.type !== "tool_call" || this.calls.has(block.id)) continue;
          const call = this.track(block.id, block.name, block.args, "pending");
          out.push(announce(block.id, call));
        }
        return out;
      }
      case "tool_call": {
        const known = this.calls.get(event.tool_call_id);
        if (known === undefined) {
          const call = this.track(event.tool_call_id, event.name, event.args, "in_progress");
          return [announce(event.tool_call_id, call)];
        }
        known.state = "in_progress";
        return [{ sessionUpdate: "tool_call_update", toolCallId: event.tool_call_id, status: "in_progress" }];
      }
      case "tool_output": {
        const call = this.calls.get(event.tool_call_id);
        if (call === undefined) return [];
        call.tail = (call.tail + event.text_delta).slice(-SHOWN_OUTPUT_MAX_CHARS);
        return [
          {
            sessionUpdate: "tool_call_update",
            toolCallId: event.tool_call_id,
            content: outputContent(call.tail),
          },
        ];
      }
      case "tool_result": {
        const call = this.calls.get(event.tool_call_id);
        if (call !== undefined) call.state = "done";
        return [
          {
            sessionUpdate: "tool_call_update",
            toolCallId: event.tool_call_id,
            status: event.is_error ? "failed" : "completed",
            content: resultContent(call?.view, call?.name, event.content, event.is_error),
          },
        ];
      }
      case "turn_end": {
        // A call the turn never finished (aborted, failed) must not spin in the editor forever.
        const out: acp.SessionUpdate[] = [];
        for (const [id, call] of this.calls) {
          if (call.state === "done") continue;
          call.state = "done";
          out.push({ sessionUpdate: "tool_call_update", toolCallId: id, status: "failed" });
        }
        return out;
      }
      case "mode_changed":
        return [{ sessionUpdate: "current_mode_update", currentModeId: event.mode }];
      case "usage": {
        const size = snapshot?.model?.context_window;
        const used = event.context_tokens;
        if (size === undefined || used === undefined) return [];
        const cost = snapshot?.usage.cost;
        return [
          {
            sessionUpdate: "usage_update",
            used,
            size,
            ...(cost !== undefined ? { cost: { amount: cost, currency: "USD" } } : {}),
          },
        ];
      }
      case "turn_failed":
        return [
          {
            sessionUpdate: "agent_message_chunk",
            content: { type: "text", text: `\n\n[${event.failure.code}] ${event.failure.message}\n` },
          },
        ];
      default:
        return [];
    }
  }

  /**
   * The tool call a permission request is about: the first announced call of that tool not
   * yet running (the gate asks in call order). A request about no call (a sandbox escalation)
   * gets a call of its own, keyed by the request.
   */
  permissionToolCall(request: PermissionRequest): acp.ToolCallUpdate {
    for (const [id, call] of this.calls) {
      if (call.state !== "pending" || call.name !== request.tool_name) continue;
      const content: acp.ToolCallContent[] =
        call.view.diff !== undefined ? [{ type: "diff", ...call.view.diff }] : [textContent(request.prompt)];
      return {
        toolCallId: id,
        title: call.view.title,
        kind: call.view.kind,
        status: "pending",
        locations: call.view.locations,
        content,
        rawInput: call.args,
      };
    }
    return {
      toolCallId: `permission-${request.request_id}`,
      title: request.prompt,
      kind: request.tool_name === "bash" ? "execute" : "other",
      status: "pending",
      content: [textContent(detailsText(request))],
      rawInput: request.input,
    };
  }

  private track(
    id: string,
    name: string,
    args: Record<string, unknown>,
    state: TrackedCall["state"],
  ): TrackedCall {
    const call: TrackedCall = { name, args, view: toolCallView({ name, args }, this.cwd), state, tail: "" };
    this.calls.set(id, call);
    if (this.calls.size > TRACKED_CALLS_MAX) {
      for (const [oldId, old] of this.calls) {
        if (this.calls.size <= TRACKED_CALLS_MAX) break;
        if (old.state === "done") this.calls.delete(oldId);
      }
    }
    return call;
  }
}

function announce(id: string, call: TrackedCall): acp.SessionUpdate {
  return {
    sessionUpdate: "tool_call",
    toolCallId: id,
    title: call.view.title,
    kind: call.view.kind,
    status: call.state === "pending" ? "pending" : "in_progress",
    locations: call.view.locations,
    rawInput: call.args,
  };
}

function detailsText(request: PermissionRequest): string {
  const lines = [request.prompt];
  for (const d of request.details ?? [])
    lines.push(d.label !== undefined ? `${d.label}: ${d.value}` : d.value);
  return lines.join("\n");
}
