/** A child's sandbox is its parent's or stricter (src/daemon/jobs/child-sandbox.ts). */
import { describe, expect, test } from "bun:test";
import { childSandbox } from "../../../src/daemon/jobs/child-sandbox.ts";
import type { SandboxState } from "../../../src/types/sandbox.ts";

const parent = (over: Partial<SandboxState> = {}): SandboxState => ({
  mode: "workspace-write",
  policy: "auto-allow-sandboxed",
  mechanism: "bubblewrap",
  network_allow: ["example.org", "registry.npmjs.org"],
  ...over,
});

describe("childSandbox", () => {
  test("asking nothing inherits the parent's mode, policy and hosts", () => {
    expect(childSandbox(parent(), {})).toEqual({
      mode: "workspace-write",
      policy: "auto-allow-sandboxed",
      network_allow: ["example.org", "registry.npmjs.org"],
    });
  });

  test("a looser mode is clamped and says what was asked; a stricter one is kept", () => {
    expect(childSandbox(parent(), { mode: "off" })).toMatchObject({
      mode: "workspace-write",
      requested: "off",
    });
    expect(childSandbox(parent({ mode: "read-only" }), { mode: "workspace-write" })).toMatchObject({
      mode: "read-only",
      requested: "workspace-write",
    });
    expect(childSandbox(parent(), { mode: "read-only" })).not.toHaveProperty("requested");
    expect(childSandbox(parent({ mode: "off", mechanism: "none" }), { mode: "off" }).mode).toBe("off");
  });

  test("the policy is the stricter of the two; the hosts at most the parent's", () => {
    expect(childSandbox(parent({ policy: "ask" }), { policy: "auto-allow-sandboxed" }).policy).toBe("ask");
    expect(childSandbox(parent(), { policy: "ask" }).policy).toBe("ask");
    expect(childSandbox(parent(), { network_allow: ["example.org", "evil.example"] }).network_allow).toEqual([
      "example.org",
    ]);
  });

  test("a parent that fell back to off for want of bubblewrap: its request is the floor, a default stays default", () => {
    const fallen = parent({
      mode: "off",
      requested: "workspace-write",
      mechanism: "none",
      unavailable: "no bwrap",
    });
    expect(childSandbox(fallen, {})).not.toHaveProperty("mode");
    expect(childSandbox(fallen, { mode: "off" })).toMatchObject({
      mode: "workspace-write",
      requested: "off",
    });
  });
});
