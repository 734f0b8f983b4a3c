/** Options of an `Agent` and of its `prompt` and `run` calls. */

import type { Image } from "../../src/types/messages.ts";
import type { AttachRole } from "../../src/types/orchestrator.ts";
import type { PermissionPolicy } from "./permission-policy.ts";
import type { TurnResult } from "./turn.ts";

export interface PromptOptions {
  images?: Image[];
  /**
   * `follow_up` queues the message to start the next turn; it is chosen for you while a turn
   * runs. To add to the running turn instead, use `agent.steer` / `turn.steer`.
   */
  behavior?: "follow_up";
  /** Keep the turn's events for iteration (default true; `run` turns it off). */
  record?: boolean;
  /**
   * The turn must end within this many ms of being accepted: past it, it is aborted (when it is
   * running) and ends with `end_reason: "error"` and a `TIMEOUT` error, whether or not the
   * agent can still be reached (a daemon that never comes back).
   */
  timeoutMs?: number;
}

export interface RunOptions {
  images?: Image[];
  /** Aborts the turn when it fires; `run` then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** As `PromptOptions.timeoutMs`: past it, `run` rejects with `TIMEOUT`. */
  timeoutMs?: number;
}

export type RunResult = TurnResult;

export interface AgentOptions {
  /** Most events a stream may hold unread before it fails (default 100,000). */
  maxBufferedEvents?: number;
  /**
   * Answers permission requests from rules, before any `onPermission` handler: deny wins, then
   * allow; what no rule covers goes to the handler, or is denied when there is none (sdk/README.md).
   */
  permissions?: PermissionPolicy;
}

export interface AttachOptions {
  /** `interactive` (default) may answer requests; `observer` only watches. */
  role?: AttachRole;
  /** This agent's permission policy (overrides the client's `permissions`). */
  permissions?: PermissionPolicy;
}

/** `agent.restore(id, options)`. */
export interface RestoreOptions {
  /** Overwrite files changed since the agent's last turn (after asking the person). */
  force?: boolean;
  /**
   * Also rewind the conversation: the session is forked just before that turn's prompt and the
   * agent continues in the fork (the answer's `conversation` names it).
   */
  conversation?: boolean;
}
