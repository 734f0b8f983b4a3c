/**
 * PermissionGate contract (docs/architecture.md §6.4, docs/protocol.md §5.3). Decision order:
 * mode policy → persisted grants → read-only inside cwd → ask.
 */
import type { PermissionChoice, PermissionDecision, PermissionDetail } from "../types/permissions.ts";
import type { RenderDescriptor } from "../types/render.ts";
import type { SandboxMode } from "../types/sandbox.ts";
import type { AnyTool } from "./tool.ts";

export interface ModePolicy {
  /** Name of the active mode, for messages. */
  name: string;
  /** When set, only these tool names may run at all. */
  allowedTools?: string[];
  /** `plan` mode: mutating tools are denied without asking. */
  denyMutating: boolean;
}

export interface PermissionCheck {
  tool: AnyTool;
  args: Record<string, unknown>;
  /** Agent cwd, absolute and symlink-resolved. */
  cwd: string;
  mode: ModePolicy;
  signal: AbortSignal;
}

/** What the gate shows the user; the runtime adds `request_id` and emits `permission_request`. */
export interface PermissionAsk {
  tool_name: string;
  input: unknown;
  prompt: string;
  options: PermissionDecision[];
  details?: PermissionDetail[];
  choices?: PermissionChoice[];
  /** What the call would change (the tool's `preview`), shown with the question. */
  preview?: RenderDescriptor;
  /** `bash` where a sandbox exists: the mode the command would run in (`off`: outside it). */
  sandbox?: SandboxMode;
}

/** How a pending request was answered. Unknown `choice_id`s never reach the gate. */
export type PermissionAnswer =
  | { kind: "decision"; decision: PermissionDecision; source?: string; reason?: string }
  | { kind: "choice"; choice_id: string; source?: string; reason?: string }
  /** Aborted, timed out, or no responder: treated as deny. */
  | { kind: "cancelled"; reason: string };

/**
 * Emits the request to every attached client and waits for the first valid answer.
 * `validChoiceIds` lets the asker ignore unknown choice ids and keep the request open.
 */
export type PermissionAsker = (ask: PermissionAsk, signal: AbortSignal) => Promise<PermissionAnswer>;

/**
 * Where the gate judged each of a call's `tool.paths(args)` to land: requested spelling →
 * absolute real path. The tool must open exactly these (docs/architecture.md §6.2), so a symlink
 * swapped after the decision cannot redirect the call.
 */
export type JudgedPaths = ReadonlyMap<string, string>;

export type GateDecision =
  | { allowed: true; source: "mode" | "grant" | "read_only" | "user" | "sandbox"; judgedPaths?: JudgedPaths }
  | { allowed: false; source: "mode" | "user" | "cancelled" | "policy" | "sandbox"; reason: string };

export interface PermissionGate {
  decide(check: PermissionCheck, ask: PermissionAsker): Promise<GateDecision>;
  /** Starts loading and warming what a first decision needs, if anything (called as a turn starts). */
  prepare?(): void;
}
