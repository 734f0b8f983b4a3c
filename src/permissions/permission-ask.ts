/**
 * What the user is shown for a permission request (docs/protocol.md §5.3): a prompt, the legacy
 * options, details (command, resolved paths) and server-defined choices with opaque ids.
 */
import { relative } from "node:path";
import type { PermissionAsk } from "../contracts/permission-gate.ts";
import { escapeForDisplay, summaryLine } from "../support/display-text.ts";
import type { PermissionChoice, PermissionDetail } from "../types/permissions.ts";
import type { RenderDescriptor } from "../types/render.ts";
import type { SandboxMode } from "../types/sandbox.ts";
import { type BashAnalysis, formatSignature } from "./bash-signature.ts";

/** Stable choice ids; their meaning is server-side (see gate.ts `interpretAnswer`). */
export const CHOICE_ALLOW_ONCE = "allow_once";
export const CHOICE_ALWAYS_EXACT = "allow_always_exact";
export const CHOICE_ALWAYS_SIGNATURE = "allow_always_signature";
export const CHOICE_ALWAYS_MCP_TOOL = "allow_always_mcp_tool";
export const CHOICE_ALWAYS_MCP_SERVER = "allow_always_mcp_server";
export const CHOICE_DENY = "deny";

export interface RequestPath {
  /** As the tool was given it. */
  requested: string;
  /** Absolute, `~`-expanded, symlink-resolved. */
  resolved: string;
  inside: boolean;
  /** Whether the spelling, read lexically, stays in cwd (see `paths.ts` `spelledInside`). */
  spelledInside: boolean;
}

export interface AskInput {
  toolName: string;
  args: Record<string, unknown>;
  cwd: string;
  paths: RequestPath[];
  /** For `bash` with a string command. */
  bash?: { command: string; analysis: BashAnalysis };
  /** A tool of an MCP server: the question names the server, its tool and the arguments. */
  mcp?: { server: string; tool: string };
  /** The tool's preview of the change. */
  preview?: RenderDescriptor;
  /** `bash` where a sandbox exists: the mode it would run in; `off` means it leaves the sandbox. */
  sandbox?: SandboxMode;
}

export function buildPermissionAsk(input: AskInput): PermissionAsk {
  const { toolName, args, bash } = input;
  // Leaving the sandbox is allowed once at a time: nothing about it is remembered.
  const leaves = input.sandbox === "off";
  return {
    tool_name: toolName,
    input: args,
    prompt: promptFor(input),
    options: leaves ? ["allow", "deny"] : ["allow", "allow_always", "deny"],
    details: [
      ...(bash ? bashDetails(input.cwd, bash) : pathDetails(input)),
      ...mcpDetails(input),
      ...sandboxDetails(input),
    ],
    choices: leaves ? onceOrDeny() : choicesFor(bash, input.mcp),
    ...(input.preview !== undefined ? { preview: input.preview } : {}),
    ...(input.sandbox !== undefined ? { sandbox: input.sandbox } : {}),
  };
}

function mcpDetails({ mcp, args }: AskInput): PermissionDetail[] {
  if (mcp === undefined) return [];
  return [
    { label: "MCP server", value: escapeForDisplay(mcp.server), format: "text" },
    { label: "Tool", value: escapeForDisplay(mcp.tool), format: "text" },
    { label: "Arguments", value: escapeForDisplay(JSON.stringify(args, null, 2)), format: "code" },
  ];
}

function sandboxDetails({ sandbox, cwd }: AskInput): PermissionDetail[] {
  if (sandbox === undefined) return [];
  const value =
    sandbox === "off"
      ? "not sandboxed: this command runs outside the sandbox, as you, with the network and all your files"
      : sandbox === "read-only"
        ? "sandboxed (read-only): it can write only its TMPDIR; secrets are hidden; no network"
        : `sandboxed (workspace-write): it can write only ${escapeForDisplay(cwd)} and its TMPDIR; secrets are hidden; no network`;
  return [{ label: "Sandbox", value, format: "text" }];
}

function onceOrDeny(): PermissionChoice[] {
  return [
    { id: CHOICE_ALLOW_ONCE, label: "Allow once, outside the sandbox", intent: "allow" },
    { id: CHOICE_DENY, label: "Deny", intent: "deny" },
  ];
}

/**
 * Paths are shown as judged (the real path the tool will open), never as spelled: absolute
 * when outside cwd, relative to cwd inside it (the details carry the absolute form).
 */
function promptFor({ toolName, cwd, paths, bash, sandbox, mcp }: AskInput): string {
  if (mcp)
    return `Allow MCP server ${escapeForDisplay(mcp.server)} to run its tool ${escapeForDisplay(mcp.tool)}?`;
  if (bash && sandbox === "off")
    return `Allow ${toolName} outside the sandbox (not sandboxed): ${summaryLine(bash.command)}?`;
  if (bash && sandbox !== undefined)
    return `Allow ${toolName} (sandboxed, ${sandbox}): ${summaryLine(bash.command)}?`;
  if (bash) return `Allow ${toolName}: ${summaryLine(bash.command)}?`;
  if (paths.length === 0) return `Allow ${toolName}?`;
  const outside = paths.filter((p) => !p.inside);
  if (outside.length > 0) {
    return `Allow ${toolName} outside the working directory: ${summaryLine(outside.map((p) => p.resolved).join(", "))}?`;
  }
  return `Allow ${toolName}: ${summaryLine(paths.map((p) => relative(cwd, p.resolved) || ".").join(", "))}?`;
}

function bashDetails(cwd: string, bash: { command: string; analysis: BashAnalysis }): PermissionDetail[] {
  const details: PermissionDetail[] = [
    // Complete, with controls and bidi characters made visible.
    { label: "Command", value: escapeForDisplay(bash.command), format: "command" },
    { label: "Working directory", value: escapeForDisplay(cwd), format: "path" },
  ];
  if (!bash.analysis.ok) {
    details.push({
      label: "Note",
      value: escapeForDisplay(`Only this exact command can be remembered (${bash.analysis.reason}).`),
      format: "text",
    });
  }
  return details;
}

function pathDetails({ paths, cwd }: AskInput): PermissionDetail[] {
  const details: PermissionDetail[] = [];
  for (const p of paths) {
    details.push({
      label: p.inside ? "Path" : "Path (outside the working directory)",
      value: escapeForDisplay(p.resolved),
      format: "path",
    });
    if (p.requested !== p.resolved)
      details.push({ label: "Requested as", value: escapeForDisplay(p.requested), format: "path" });
  }
  if (paths.some((p) => p.inside !== p.spelledInside)) {
    details.push({
      label: "Note",
      value:
        "A path is spelled as if it were elsewhere than it really is (a symlink followed by `..`); " +
        "the real path above is the one that will be used.",
      format: "text",
    });
  }
  if (paths.length > 0) {
    const outside = paths.some((p) => !p.inside);
    details.push({
      label: "Outside the working directory",
      value: outside ? `yes (working directory: ${escapeForDisplay(cwd)})` : "no",
      format: "text",
    });
  }
  return details;
}

function choicesFor(bash: AskInput["bash"], mcp: AskInput["mcp"]): PermissionChoice[] {
  const choices: PermissionChoice[] = [
    { id: CHOICE_ALLOW_ONCE, label: "Allow once", intent: "allow" },
    {
      id: CHOICE_ALWAYS_EXACT,
      label: bash ? "Always allow this exact command" : "Always allow this exact request",
      intent: "persist",
    },
  ];
  if (bash?.analysis.ok) {
    const sigs = bash.analysis.signatures;
    choices.push({
      id: CHOICE_ALWAYS_SIGNATURE,
      label: escapeForDisplay(
        `Always allow ${sigs.map(formatSignature).join("; ")}, and any other arguments`,
      ),
      description:
        "Other arguments (file names, paths, messages) are not compared: any command made only of these commands, each with exactly these flags, will run without asking in this project, whatever files it names.",
      intent: "persist",
    });
  }
  if (mcp) {
    choices.push(
      {
        id: CHOICE_ALWAYS_MCP_TOOL,
        label: escapeForDisplay(`Always allow ${mcp.tool} of ${mcp.server}, with any arguments`),
        intent: "persist",
      },
      {
        id: CHOICE_ALWAYS_MCP_SERVER,
        label: escapeForDisplay(`Always allow every tool of MCP server ${mcp.server}`),
        description: "Tools the server adds later are covered too.",
        intent: "persist",
      },
    );
  }
  choices.push({ id: CHOICE_DENY, label: "Deny", intent: "deny" });
  return choices;
}
