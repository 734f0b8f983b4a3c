/** `shard attach` and `shard run` show a file tool's change under its permission question. */
import { describe, expect, test } from "bun:test";
import { formatPermissionPrompt } from "../../src/terminal/permission-prompt.ts";
import type { PermissionRequest } from "../../src/types/permissions.ts";

function request(preview: PermissionRequest["preview"]): PermissionRequest {
  return {
    type: "permission_request",
    request_id: "req-1",
    tool_name: "edit",
    input: {},
    prompt: "Allow edit: app.ts?",
    options: ["allow", "deny"],
    ...(preview !== undefined ? { preview } : {}),
  };
}

describe("formatPermissionPrompt with a preview", () => {
  test("a diff is shown line by line above the choices, escaped", () => {
    const shown = formatPermissionPrompt(
      request({
        kind: "diff",
        path: "app.ts",
        hunks: [
          {
            old_start: 2,
            old_lines: 1,
            new_start: 2,
            new_lines: 1,
            lines: ["-port 3000", "+port\u001b[2J 8080"],
          },
        ],
      }),
    );
    expect(shown).toContain("@@ -2,1 +2,1 @@");
    expect(shown).toContain("-port 3000");
    expect(shown).not.toContain("\u001b");
    expect(shown.indexOf("+port")).toBeLessThan(shown.indexOf("1) "));
  });

  test("a long preview is cut with a count of what is left", () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n");
    const shown = formatPermissionPrompt(request({ kind: "code", path: "new.ts", text }));
    expect(shown).toContain("line 39");
    expect(shown).not.toContain("line 40\n");
    expect(shown).toContain("… 60 more lines");
  });
});
