/** The `shard run` renderer over typed protocol events, with both sinks captured. */
import { describe, expect, test } from "bun:test";
import { errorText, type RenderedEvent, RunRenderer, toolLabel } from "../../src/terminal/run-renderer.ts";
import { terminalLine, terminalText } from "../../src/terminal/terminal-text.ts";
import type { PermissionRequest } from "../../src/types/permissions.ts";

const ESC = "\u001b";

function render(events: RenderedEvent[], escapeAnswer = false) {
  const out = { answer: "", status: "" };
  const renderer = new RunRenderer({
    answer: (text) => {
      out.answer += text;
    },
    status: (line) => {
      out.status += line;
    },
    escapeAnswer,
  });
  for (const event of events) renderer.handle(event);
  return { out, renderer };
}

function textDelta(text: string): RenderedEvent {
  return { type: "message_delta", message_id: "msg_1", block_index: 0, kind: "text", text_delta: text };
}

describe("RunRenderer", () => {
  test("text deltas go to the answer sink; end() closes the line once", () => {
    const { out, renderer } = render([
      textDelta("Let me "),
      { type: "message_delta", message_id: "msg_1", block_index: 1, kind: "thinking", text_delta: "hmm" },
      textDelta("look."),
    ]);
    expect(out.answer).toBe("Let me look.");
    renderer.end();
    renderer.end();
    expect(out.answer).toBe("Let me look.\n");
    expect(out.status).toBe("");
  });

  test("an answer that ends its line gets no extra newline", () => {
    const { out, renderer } = render([textDelta("done\n")]);
    renderer.end();
    expect(out.answer).toBe("done\n");
  });

  test("one status line per tool result, labelled from tool_call or from the message", () => {
    const { out } = render([
      {
        type: "message_complete",
        message_id: "msg_1",
        message: {
          id: "msg_1",
          role: "assistant",
          content: [
            { type: "tool_call", id: "c1", name: "bash", args: { command: "ls   -la\n." } },
            { type: "tool_call", id: "c2", name: "write", args: { path: "out.txt", content: "x" } },
          ],
        },
      },
      { type: "tool_call", tool_call_id: "c1", name: "bash", args: { command: "ls   -la\n." } },
      {
        type: "tool_result",
        tool_call_id: "c1",
        content: { kind: "text", text: "a" },
        is_error: false,
        exit_code: 0,
        duration_ms: 12,
      },
      {
        type: "tool_result",
        tool_call_id: "c2",
        content: { kind: "error", message: "denied by the user\nsecond line" },
        is_error: true,
      },
    ]);
    expect(out.status).toBe("✓ bash ls -la . exit 0 12ms\n✗ write out.txt — denied by the user\n");
  });

  test("errors, failed responses and status details are status lines", () => {
    const { out } = render([
      { type: "status", status: "streaming" },
      { type: "status", status: "streaming", detail: "retrying in 2 s, attempt 2/4: HTTP 503" },
      { type: "error", code: "PROVIDER_ERROR", message: "overloaded", fatal: false },
      { type: "error", code: "INTERNAL_ERROR", message: "session write failed: ENOSPC", fatal: true },
      { type: "status", status: "error", detail: "session write failed: ENOSPC" },
      {
        type: "response",
        id: "run",
        command: "prompt",
        success: false,
        error: { code: "CONFLICT", message: "busy" },
      },
      { type: "response", id: "x", command: "prompt", success: true },
    ]);
    expect(out.status).toBe(
      "retrying in 2 s, attempt 2/4: HTTP 503\nerror: PROVIDER_ERROR: overloaded\nerror: INTERNAL_ERROR: session write failed: ENOSPC\nerror: CONFLICT: busy\n",
    );
  });

  test("denied() prints the request's prompt and the hint", () => {
    const request: PermissionRequest = {
      type: "permission_request",
      request_id: "r1",
      tool_name: "write",
      input: {},
      prompt: "Write out.txt",
      options: ["allow", "deny"],
    };
    const { out, renderer } = render([]);
    renderer.denied(request, "use --allow write or --yes to allow");
    expect(out.status).toBe("denied: Write out.txt (use --allow write or --yes to allow)\n");
  });

  test("status lines escape ESC, C1, bidi controls and line breaks from untrusted text", () => {
    const hostile = `${ESC}[2J\u009b31m\u202eexe.txt\r\nfake line`;
    const { out, renderer } = render([
      { type: "tool_call", tool_call_id: "c1", name: "read", args: { path: hostile } },
      {
        type: "tool_result",
        tool_call_id: "c1",
        content: { kind: "error", message: hostile },
        is_error: true,
      },
      { type: "error", code: "INTERNAL_ERROR", message: hostile },
      { type: "status", status: "streaming", detail: hostile },
    ]);
    renderer.denied(
      {
        type: "permission_request",
        request_id: "r",
        tool_name: "bash",
        input: {},
        prompt: hostile,
        options: ["deny"],
      },
      "",
    );
    expect(out.status).not.toMatch(/[\u001b\u009b\u202e\r]/);
    // Exactly one line per rendered item: nothing in the text could start a line of its own.
    expect(out.status.split("\n")).toHaveLength(5);
    expect(out.status).toContain("\\u001b[2J\\u009b31m\\u202eexe.txt");
  });

  test("the answer is raw for a pipe and escaped (keeping newlines and tabs) for a terminal", () => {
    const text = `${ESC}]0;title\u0007red\tok\n\u2066x\u2069`;
    expect(render([textDelta(text)]).out.answer).toBe(text);
    expect(render([textDelta(text)], true).out.answer).toBe("\\u001b]0;title\\u0007red\tok\n\\u2066x\\u2069");
  });
});

describe("labels and error text", () => {
  test("a long argument is cut with a mark; other args are shown as JSON", () => {
    expect(toolLabel("bash", { command: "x".repeat(300) })).toBe(`bash ${"x".repeat(97)}...`);
    expect(toolLabel("ask", { options: ["a"] })).toBe('ask {"options":["a"]}');
  });

  test("error text is the first line of any result kind", () => {
    expect(errorText({ kind: "text", text: "first\nsecond" })).toBe("first");
    expect(errorText({ kind: "json", value: { a: 1 } })).toBe('{"a":1}');
    expect(errorText({ kind: "json", value: undefined })).toBe("");
  });

  test("terminalText keeps printable text, including non-ASCII, untouched", () => {
    const text = 'héllo — 日本語 🙂 "quotes" \\ back';
    expect(terminalText(text)).toBe(text);
    expect(terminalLine(text)).toBe(text);
  });
});
