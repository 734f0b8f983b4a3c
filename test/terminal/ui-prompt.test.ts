/** `shard attach`'s UI dialogs: the typed line maps to the value the web's dialog would send. */
import { describe, expect, test } from "bun:test";
import { formatUiPrompt, parseUiAnswer } from "../../src/terminal/ui-prompt.ts";
import type { UiRequest } from "../../src/types/permissions.ts";

function request(fields: Partial<UiRequest> & Pick<UiRequest, "kind">): UiRequest {
  return { type: "ui_request", agent_id: "agent-1", request_id: "ui-1", ...fields };
}

describe("parseUiAnswer", () => {
  test("select takes a number or an option's text, and nothing else", () => {
    const r = request({ kind: "select", options: ["main", "develop"] });
    expect(parseUiAnswer(r, "2")).toEqual({ value: "develop" });
    expect(parseUiAnswer(r, "MAIN")).toEqual({ value: "main" });
    expect(parseUiAnswer(r, "3")).toBeUndefined();
    expect(parseUiAnswer(r, "")).toBeUndefined();
  });

  test("confirm answers yes or no like the web", () => {
    const r = request({ kind: "confirm" });
    expect(parseUiAnswer(r, "y")).toEqual({ value: "yes" });
    expect(parseUiAnswer(r, "No")).toEqual({ value: "no" });
    expect(parseUiAnswer(r, "maybe")).toBeUndefined();
  });

  test("input keeps the line as typed; an empty line keeps the prefill", () => {
    expect(parseUiAnswer(request({ kind: "input" }), "  spaced ")).toEqual({ value: "  spaced " });
    expect(parseUiAnswer(request({ kind: "editor", prefill: "draft" }), "")).toEqual({ value: "draft" });
    expect(parseUiAnswer(request({ kind: "input" }), "")).toEqual({ value: "" });
  });

  test("notify is acknowledged with any line, and /dismiss answers null for every kind", () => {
    expect(parseUiAnswer(request({ kind: "notify" }), "")).toEqual({ value: "ok" });
    for (const kind of ["select", "confirm", "input", "editor", "notify"] as const) {
      expect(parseUiAnswer(request({ kind, options: ["a"] }), "/dismiss")).toEqual({ value: null });
    }
  });
});

describe("formatUiPrompt", () => {
  test("escapes the request's untrusted text", () => {
    const shown = formatUiPrompt(
      request({
        kind: "select",
        title: "pick\u001b[2J",
        message: "line one\nline\u0007two",
        options: ["\u001b]0;x\u0007a"],
      }),
    );
    expect(shown).not.toContain("\u001b");
    expect(shown).not.toContain("\u0007");
    expect(shown).toContain("line one");
  });
});
