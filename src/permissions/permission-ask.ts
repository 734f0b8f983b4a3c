/**
 * What the user is shown for a permission request (PROTOCOL §9.5): a prompt, the legacy
 * options, details (command, resolved paths) and server-defined choices with opaque ids.
 */
import type { PermissionAsk } from "../contracts/permission-gate.ts";
import type { PermissionChoice, PermissionDetail } from "../types/permissions.ts";
import { type BashAnalysis, commandName, formatSignature } from "./bash-signature.ts";

/** Stable choice ids; their meaning is server-side (see gate.ts `interpretAnswer`). */
export const CHOICE_ALLOW_ONCE = "allow_once";
export const CHOICE_ALWAYS_EXACT = "allow_always_exact";
export const CHOICE_ALWAYS_SIGNATURE = "allow_always_signature";
export const CHOICE_DENY = "deny";

export interface RequestPath {
  /** As the tool was given it. */
  requested: string;
  /** Absolute, `~`-expanded, symlink-resolved. */
  resolved: string;
  inside: boolean;
}

export interface AskInput {
  toolName: string;
  args: Record<string, unknown>;
  cwd: string;
  paths: RequestPath[];
  /** For `bash` with a string command. */
  bash?: { command: string; analysis: BashAnalysis };
}

const PROMPT_SUBJECT_MAX = 160;

export function buildPermissionAsk(input: AskInput): PermissionAsk {
  const { toolName, args, bash } = input;
  return {
    tool_name: toolName,
    input: args,
    prompt: promptFor(input),
    options: ["allow", "allow_always", "deny"],
    details: bash ? bashDetails(input.cwd, bash) : pathDetails(input),
    choices: choicesFor(bash),
  };
}

function promptFor({ toolName, paths, bash }: AskInput): string {
  if (bash) return `Allow ${toolName}: ${oneLine(bash.command)}?`;
  if (paths.length === 0) return `Allow ${toolName}?`;
  const outside = paths.filter((p) => !p.inside);
  if (outside.length > 0) {
    return `Allow ${toolName} outside the working directory: ${oneLine(outside.map((p) => p.resolved).join(", "))}?`;
  }
  return `Allow ${toolName}: ${oneLine(paths.map((p) => p.requested).join(", "))}?`;
}

function bashDetails(cwd: string, bash: { command: string; analysis: BashAnalysis }): PermissionDetail[] {
  const details: PermissionDetail[] = [
    { label: "Command", value: bash.command, format: "command" },
    { label: "Working directory", value: cwd, format: "path" },
  ];
  if (!bash.analysis.ok) {
    details.push({
      label: "Note",
      value: `Only this exact command can be remembered (${bash.analysis.reason}).`,
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
      value: p.resolved,
      format: "path",
    });
    if (p.requested !== p.resolved)
      details.push({ label: "Requested as", value: p.requested, format: "path" });
  }
  if (paths.length > 0) {
    const outside = paths.some((p) => !p.inside);
    details.push({
      label: "Outside the working directory",
      value: outside ? `yes (working directory: ${cwd})` : "no",
      format: "text",
    });
  }
  return details;
}

function choicesFor(bash: AskInput["bash"]): PermissionChoice[] {
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
    const commands = [...new Set(sigs.map((s) => `\`${commandName(s)}\``))].join(", ");
    choices.push({
      id: CHOICE_ALWAYS_SIGNATURE,
      label: `Always allow ${commands} with exactly these flags and any other arguments (${sigs.map(formatSignature).join("; ")})`,
      description:
        "Other arguments (file names, paths, messages) are not compared: any command made only of these commands, each with exactly these flags, will run without asking in this project, whatever files it names.",
      intent: "persist",
    });
  }
  choices.push({ id: CHOICE_DENY, label: "Deny", intent: "deny" });
  return choices;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, " ⏎ ").trim();
  return flat.length > PROMPT_SUBJECT_MAX ? `${flat.slice(0, PROMPT_SUBJECT_MAX - 1)}…` : flat;
}
