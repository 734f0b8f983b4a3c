/**
 * Tools that come and go while the agent runs (MCP servers, src/mcp): the runtime asks for them
 * at every provider call, so a change reaches the model at its next request.
 */
import type { PermissionAsker } from "./permission-gate.ts";
import type { AnyTool } from "./tool.ts";

/** What a turn's start lends the source: a way to ask the person (a project's MCP trust). */
export interface ToolSourceTurn {
  ask: PermissionAsker;
  signal: AbortSignal;
}

export interface ToolSource {
  /** At the start of every turn: start what is not running yet (never at start-up). */
  prepare(turn: ToolSourceTurn): Promise<void>;
  /** The tools as of now. */
  tools(): AnyTool[];
  /** With the runtime: stop everything it started. */
  close(): Promise<void>;
}
