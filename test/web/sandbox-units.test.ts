/**
 * The web's sandbox words without a browser: the header badge, its tooltip for each mode (what
 * is writable, the network allowlist, the policy), the no-sandbox notice, and the split of bash's
 * "[sandbox] …" explanation from the output it follows.
 */
import { describe, expect, test } from "bun:test";
import type { SandboxState } from "../../src/types/sandbox.ts";
import {
  sandboxBadge,
  sandboxDescription,
  sandboxUnavailableNotice,
} from "../../web/src/views/agents/sandbox-label.ts";
import { splitSandboxNote } from "../../web/src/views/transcript/sandbox-note.ts";
import { splitTruncation } from "../../web/src/views/transcript/truncation.ts";

const confined: SandboxState = {
  mode: "read-only",
  policy: "auto-allow-sandboxed",
  mechanism: "bubblewrap",
  network_allow: ["registry.npmjs.org", "github.com"],
};

describe("sandbox words", () => {
  test("the badge names the mode; off reads unsandboxed", () => {
    expect(sandboxBadge("workspace-write")).toBe("sandbox: workspace-write");
    expect(sandboxBadge("read-only")).toBe("sandbox: read-only");
    expect(sandboxBadge("off")).toBe("unsandboxed");
  });

  test("the tooltip says what is writable, which hosts are reachable and the policy", () => {
    const text = sandboxDescription(confined, "/src/app");
    expect(text).toContain("nothing but a private TMPDIR is writable");
    expect(text).not.toContain("/src/app");
    expect(text).toContain("the network reaches only registry.npmjs.org, github.com");
    expect(text).toContain("Policy auto-allow-sandboxed: a sandboxed command runs without asking");
  });

  test("a machine without a sandbox gets a notice with its reason; one with a sandbox none", () => {
    const fallback: SandboxState = {
      mode: "off",
      requested: "workspace-write",
      policy: "ask",
      mechanism: "none",
      network_allow: [],
      unavailable: "bubblewrap (bwrap) is not installed",
    };
    expect(sandboxUnavailableNotice(fallback)).toBe(
      "No sandbox on this machine: commands run unconfined (bubblewrap (bwrap) is not installed)",
    );
    expect(sandboxDescription(fallback, "/src/app")).toContain("(workspace-write was asked for)");
    expect(sandboxUnavailableNotice(confined)).toBeUndefined();
    expect(sandboxUnavailableNotice(undefined)).toBeUndefined();
  });
});

describe("the [sandbox] explanation", () => {
  test("is split from the end of the output, after any truncation note", () => {
    const text =
      "line\n\n[Output truncated: showing the last 2000 lines]\n\n[sandbox] This command ran in the read-only sandbox.";
    const split = splitSandboxNote(text);
    expect(split.note).toBe("This command ran in the read-only sandbox.");
    expect(splitTruncation(split.body)).toEqual({
      body: "line",
      truncation: "Output truncated: showing the last 2000 lines",
    });
  });

  test("output without one, or with one that is not at the end, is left whole", () => {
    expect(splitSandboxNote("touch: Read-only file system")).toEqual({
      body: "touch: Read-only file system",
    });
    const middle = "a\n\n[sandbox] said earlier\nmore output";
    expect(splitSandboxNote(middle)).toEqual({ body: middle });
  });
});
