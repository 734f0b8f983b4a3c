/**
 * A `ui_request` as terminal text, and the user's typed line mapped to its `ui_response.value`,
 * with the same values the web's dialog sends: select → the option exactly as offered (by
 * number or by its text); confirm → "yes" / "no"; input and editor → the line (empty keeps the
 * prefill); notify → "ok" on any line; `/dismiss` → null for every kind. Every string in the
 * request is untrusted: escaped line by line.
 */
import type { UiRequest } from "../types/permissions.ts";
import { terminalLine } from "./terminal-text.ts";

export type UiValue = string | null;

const DISMISS = "/dismiss";

function heading(request: UiRequest): string {
  const kind = {
    select: "choose",
    confirm: "confirm",
    input: "answer",
    editor: "edit",
    notify: request.notify_type ?? "notice",
  }[request.kind];
  const title = request.title !== undefined ? ` ${terminalLine(request.title)}` : "";
  return `? ${kind}:${title}`;
}

function hint(request: UiRequest): string {
  switch (request.kind) {
    case "select":
      return "answer with a number or an option";
    case "confirm":
      return "answer y or n";
    case "input":
    case "editor":
      return request.prefill !== undefined
        ? "type the text (an empty line keeps the prefill)"
        : "type the text";
    case "notify":
      return "press Enter once read";
  }
}

export function formatUiPrompt(request: UiRequest): string {
  const lines = [heading(request)];
  for (const line of (request.message ?? "").split("\n"))
    if (line !== "") lines.push(`    ${terminalLine(line)}`);
  if (request.kind === "select") {
    for (const [i, option] of (request.options ?? []).entries())
      lines.push(`  ${i + 1}) ${terminalLine(option)}`);
  }
  if ((request.kind === "input" || request.kind === "editor") && request.prefill !== undefined) {
    lines.push(`    prefill: ${terminalLine(request.prefill)}`);
  }
  lines.push(`${hint(request)} (${DISMISS} to dismiss):`);
  return `${lines.join("\n")}\n`;
}

/** The value to answer with, or undefined when the line answers nothing (the prompt is shown again). */
export function parseUiAnswer(request: UiRequest, input: string): { value: UiValue } | undefined {
  const text = input.trim();
  if (text === DISMISS) return { value: null };
  switch (request.kind) {
    case "select": {
      const options = request.options ?? [];
      const number = Number(text);
      if (text !== "" && Number.isInteger(number) && number >= 1 && number <= options.length) {
        const picked = options[number - 1];
        return picked === undefined ? undefined : { value: picked };
      }
      const exact =
        options.find((o) => o === text) ?? options.find((o) => o.toLowerCase() === text.toLowerCase());
      return exact === undefined ? undefined : { value: exact };
    }
    case "confirm": {
      const lower = text.toLowerCase();
      if (lower === "y" || lower === "yes") return { value: "yes" };
      if (lower === "n" || lower === "no") return { value: "no" };
      return undefined;
    }
    case "input":
    case "editor":
      // The line as typed (no trim): an empty one keeps the prefill.
      return { value: input === "" && request.prefill !== undefined ? request.prefill : input };
    case "notify":
      return { value: "ok" };
  }
}
