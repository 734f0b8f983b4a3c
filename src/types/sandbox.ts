/**
 * The OS sandbox an agent's commands run in (docs/sandbox.md, protocol-additions §18): its mode,
 * its prompt policy, and what a client is told about it.
 */
import { type Static, Type } from "@sinclair/typebox";

/**
 * `off`: commands run as the user. `read-only`: nothing writable but a private TMPDIR.
 * `workspace-write`: the agent's cwd (its worktree) and TMPDIR are writable. In both confined
 * modes secrets and `$SHARD_HOME` are invisible and the network is off but for an allowlist.
 */
export const SandboxModeSchema = Type.Union(
  [Type.Literal("off"), Type.Literal("read-only"), Type.Literal("workspace-write")],
  { $id: "SandboxMode" },
);
export type SandboxMode = Static<typeof SandboxModeSchema>;

/** Whether a `bash` call that stays inside the sandbox still asks the person. */
export const SandboxPolicySchema = Type.Union([Type.Literal("ask"), Type.Literal("auto-allow-sandboxed")], {
  $id: "SandboxPolicy",
});
export type SandboxPolicy = Static<typeof SandboxPolicySchema>;

/** What an agent runs with, as `sync`, `sandbox_changed` and `agent.list` tell it. */
export const SandboxStateSchema = Type.Object(
  {
    /** The mode commands actually run in. */
    mode: SandboxModeSchema,
    /** The mode asked for, when it could not be had (the platform has no sandbox). */
    requested: Type.Optional(SandboxModeSchema),
    policy: SandboxPolicySchema,
    /** What confines the commands; `none` when the mode is `off`. */
    mechanism: Type.Union([Type.Literal("bubblewrap"), Type.Literal("none")]),
    /** Hosts reachable through the filtering proxy; empty means no network. */
    network_allow: Type.Array(Type.String()),
    /** Why this machine cannot confine commands (bubblewrap missing or refused); absent when it can. */
    unavailable: Type.Optional(Type.String()),
  },
  { $id: "SandboxState" },
);
export type SandboxState = Static<typeof SandboxStateSchema>;

/** How strict a mode is: a child may only run at its parent's level or above. */
export const SANDBOX_STRICTNESS: Readonly<Record<SandboxMode, number>> = {
  off: 0,
  "workspace-write": 1,
  "read-only": 2,
};
