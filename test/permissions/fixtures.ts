/** Tool definitions shaped like the built-ins, a recording asker (the user's stand-in) and temp dirs. */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import type {
  ModePolicy,
  PermissionAnswer,
  PermissionAsk,
  PermissionAsker,
  PermissionCheck,
} from "../../src/contracts/permission-gate.ts";
import type { AnyTool, Tool, ToolResult } from "../../src/contracts/tool.ts";

/** The gate never runs tools; these only need the contract's shape. */
async function notExecuted(): Promise<ToolResult> {
  return { content: { kind: "error", message: "not executed by permission tests" }, is_error: true };
}

function pathTool(name: string, isReadOnly: boolean): AnyTool {
  const parameters = Type.Object({ path: Type.String(), content: Type.Optional(Type.String()) });
  const tool: Tool<typeof parameters> = {
    name,
    description: `${name} a file`,
    parameters,
    isReadOnly,
    paths: (args) => [args.path],
    execute: notExecuted,
  };
  return tool;
}

export const readTool = pathTool("read", true);
export const writeTool = pathTool("write", false);
export const editTool = pathTool("edit", false);

const bashParameters = Type.Object({ command: Type.String() });
export const bashTool: AnyTool = {
  name: "bash",
  description: "run a command",
  parameters: bashParameters,
  isReadOnly: false,
  execute: notExecuted,
} satisfies Tool<typeof bashParameters>;

export const BUILD: ModePolicy = { name: "build", denyMutating: false };
export const PLAN: ModePolicy = { name: "plan", denyMutating: true };

/** Answers with the queued answers in order and records every ask it saw. */
export function recordingAsker(...answers: PermissionAnswer[]): PermissionAsker & { asks: PermissionAsk[] } {
  const asks: PermissionAsk[] = [];
  const asker = async (ask: PermissionAsk) => {
    asks.push(ask);
    return answers.shift() ?? { kind: "cancelled" as const, reason: "test asker has no more answers" };
  };
  return Object.assign(asker, { asks });
}

export function check(
  tool: AnyTool,
  args: Record<string, unknown>,
  cwd: string,
  mode: ModePolicy = BUILD,
): PermissionCheck {
  return { tool, args, cwd, mode, signal: new AbortController().signal };
}

/** A fresh temp dir (symlink-resolved, as the runtime hands cwd to the gate). */
export function tempDir(prefix: string): { path: string; cleanup: () => void } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), `shard-perm-${prefix}-`)));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}
