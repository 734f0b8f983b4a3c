/**
 * Tool contract (docs/architecture.md §6.2). Tools never throw across this boundary: every
 * failure is a result with `is_error: true`.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import type { Image, ToolResultContent } from "../types/messages.ts";
import type { RenderDescriptor } from "../types/render.ts";
import type { SandboxMode } from "../types/sandbox.ts";

export interface UiAsk {
  kind: "select" | "confirm" | "input" | "editor" | "notify";
  title?: string;
  message?: string;
  options?: string[];
  placeholder?: string;
  prefill?: string;
  notify_type?: "info" | "warning" | "error";
}

export interface ToolContext {
  /** The agent's working directory (absolute, symlinks resolved). */
  cwd: string;
  /** Aborted when the turn is aborted; tools must stop promptly and clean up. */
  signal: AbortSignal;
  toolCallId: string;
  /** Optional progress channel for long-running tools (streamed output). */
  onUpdate?: (text: string) => void;
  /** Asks the user through a `ui_request`; resolves `null` when dismissed/denied/aborted. */
  askUser: (ask: UiAsk) => Promise<string | string[] | null>;
  /**
   * The real paths the permission gate judged for this call's `paths(args)` (requested
   * spelling → absolute real path). A file tool opens these, never a re-resolved spelling.
   * Absent when no gate ran (a tool used on its own); the tool then resolves the path itself.
   */
  judgedPaths?: ReadonlyMap<string, string>;
  /**
   * This call's span as a W3C `traceparent` (present only while OpenTelemetry export is on):
   * the `subagent` tool hands it to the children so their spans join this trace.
   */
  traceparent?: string;
  /**
   * The text the client holds for an absolute path (an editor's unsaved buffer), or undefined
   * when it has none in time; absent when the client serves no reads. `read` asks only for a
   * path the gate judged and that lies inside `cwd`.
   */
  readClientFile?: (path: string) => Promise<string | undefined>;
}

export interface ToolResult {
  content: ToolResultContent;
  is_error: boolean;
  exit_code?: number;
  duration_ms?: number;
  render?: RenderDescriptor;
  images?: Image[];
  /** `bash` where a sandbox exists: the mode the command ran in (`off`: unconfined). */
  sandbox?: SandboxMode;
}

export interface Tool<P extends TSchema = TSchema> {
  name: string;
  description: string;
  parameters: P;
  isReadOnly: boolean;
  /** A tool of an MCP server (src/mcp): the permission question names the server and its tool. */
  mcp?: { server: string; tool: string };
  /** Start-time render descriptor for `tool_call`. */
  render?(args: Static<P>): RenderDescriptor | undefined;
  /**
   * Paths (as given, relative to cwd or absolute) the call reads or writes, so the
   * permission gate can resolve them through symlinks and check they stay inside cwd.
   */
  paths?(args: Static<P>): string[];
  /**
   * What the call would change, computed without changing anything, for the permission request
   * (an edit's diff). Undefined when there is nothing to show; the call's own errors are left to
   * `execute`. Given the gate's judged paths, so it reads what the call would write.
   */
  preview?(args: Static<P>, ctx: PreviewContext): Promise<RenderDescriptor | undefined>;
  execute(args: Static<P>, ctx: ToolContext): Promise<ToolResult>;
}

export type PreviewContext = Pick<ToolContext, "cwd" | "signal" | "judgedPaths">;

// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every parameter shape.
export type AnyTool = Tool<any>;
