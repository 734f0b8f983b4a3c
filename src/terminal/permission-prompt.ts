/**
 * A permission request as terminal text, and the user's typed answer mapped back to one of its
 * choices: a choice's number, its accelerator, or y / a / n for the first allow, persist and
 * deny choices. Every string in the request is untrusted: escaped line by line.
 */
import type { PermissionDecision, PermissionRequest } from "../types/permissions.ts";
import { terminalLine } from "./terminal-text.ts";

export type PermissionAnswer = { choice_id: string } | { decision: PermissionDecision };

interface Offered {
  label: string;
  key?: string;
  answer: PermissionAnswer;
  intent: "allow" | "persist" | "deny";
}

const DETAIL_LINES = 12;
/** The most lines of a change's preview shown above the choices. */
const PREVIEW_LINES = 40;

function offered(request: PermissionRequest): Offered[] {
  if (request.choices !== undefined && request.choices.length > 0) {
    return request.choices.map((c) => ({
      label: c.label,
      ...(c.accelerator !== undefined ? { key: c.accelerator } : {}),
      answer: { choice_id: c.id },
      intent: c.intent,
    }));
  }
  return request.options.map((decision) => ({
    label: decision.replace("_", " "),
    answer: { decision },
    intent: decision === "deny" ? "deny" : decision === "allow_always" ? "persist" : "allow",
  }));
}

export function formatPermissionPrompt(request: PermissionRequest): string {
  const lines = [`? permission: ${terminalLine(request.tool_name)} — ${terminalLine(request.prompt)}`];
  for (const detail of request.details ?? []) {
    const label = detail.label !== undefined ? `${terminalLine(detail.label)}: ` : "";
    const valueLines = detail.value.split("\n");
    for (const [i, line] of valueLines.slice(0, DETAIL_LINES).entries()) {
      lines.push(`    ${i === 0 ? label : " ".repeat(label.length)}${terminalLine(line)}`);
    }
    if (valueLines.length > DETAIL_LINES) lines.push(`    … ${valueLines.length - DETAIL_LINES} more lines`);
  }
  lines.push(...previewLines(request.preview));
  for (const [i, choice] of offered(request).entries()) {
    const key = choice.key !== undefined ? ` [${terminalLine(choice.key)}]` : "";
    lines.push(`  ${i + 1}) ${terminalLine(choice.label)}${key}`);
  }
  lines.push("answer with a number (or y = allow once, a = always, n = deny):");
  return `${lines.join("\n")}\n`;
}

export function parsePermissionAnswer(
  request: PermissionRequest,
  input: string,
): PermissionAnswer | undefined {
  const text = input.trim();
  if (text === "") return undefined;
  const choices = offered(request);
  const number = Number(text);
  if (Number.isInteger(number) && number >= 1 && number <= choices.length) return choices[number - 1]?.answer;
  const byKey = choices.find((c) => c.key !== undefined && c.key.toLowerCase() === text.toLowerCase());
  if (byKey !== undefined) return byKey.answer;
  const intent = { y: "allow", a: "persist", n: "deny" }[text.toLowerCase()];
  return choices.find((c) => c.intent === intent)?.answer;
}

/** The change the call would make (a diff, a new file's head, or a sentence), cut to PREVIEW_LINES. */
function previewLines(preview: PermissionRequest["preview"]): string[] {
  if (preview === undefined) return [];
  let body: string[];
  switch (preview.kind) {
    case "diff":
      body = preview.hunks.flatMap((h) => [
        `@@ -${h.old_start},${h.old_lines} +${h.new_start},${h.new_lines} @@`,
        ...h.lines,
      ]);
      break;
    case "code":
    case "text":
      body = preview.text.split("\n");
      break;
    default:
      return [];
  }
  const shown = body.slice(0, PREVIEW_LINES).map((line) => `    ${terminalLine(line)}`);
  if (body.length > PREVIEW_LINES) shown.push(`    … ${body.length - PREVIEW_LINES} more lines`);
  return ["  change:", ...shown];
}
