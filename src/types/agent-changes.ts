/**
 * `agent.changes` (ours: docs/protocol-additions.md §14): what an agent has changed in its
 * working tree, file by file, against its baseline. Daemon-level, no routing `agent_id`.
 */
import { type Static, Type } from "@sinclair/typebox";
import { payloadAgentId, requiredCommandId } from "./envelope.ts";
import { WorkspaceDiffFileSchema } from "./workspace.ts";

export const AgentChangesCommandSchema = Type.Object(
  {
    type: Type.Literal("agent.changes"),
    id: requiredCommandId,
    version: Type.Optional(Type.Literal(1)),
    agent_id: payloadAgentId,
  },
  { $id: "AgentChangesCommand" },
);
export type AgentChangesCommand = Static<typeof AgentChangesCommandSchema>;

/** What the files are compared against. */
export const AgentChangesBaselineSchema = Type.Union(
  [
    /** The agent's working tree (untracked files too) when its first runtime started. */
    Type.Object({ kind: Type.Literal("agent_start"), commit: Type.String(), recorded_at: Type.Number() }),
    /**
     * The agent works in a workspace: its branch's merge base with the integration target,
     * against the worktree as it is (uncommitted work too), or the branch tip once retired.
     */
    Type.Object({
      kind: Type.Literal("workspace"),
      workspace_id: Type.String({ minLength: 1 }),
      branch: Type.String(),
      base: Type.String(),
      retired: Type.Boolean(),
    }),
    /** Nothing to compare: `message` says why, for the user. */
    Type.Object({
      kind: Type.Literal("none"),
      reason: Type.Union([
        Type.Literal("not_git"),
        Type.Literal("not_recorded"),
        Type.Literal("gone"),
        Type.Literal("branch_deleted"),
      ]),
      message: Type.String(),
    }),
  ],
  { $id: "AgentChangesBaseline" },
);
export type AgentChangesBaseline = Static<typeof AgentChangesBaselineSchema>;

export const AgentChangesResultSchema = Type.Object(
  {
    agent_id: payloadAgentId,
    baseline: AgentChangesBaselineSchema,
    /** Paths relative to the repository's top level; empty when the baseline is `none`. */
    files: Type.Array(WorkspaceDiffFileSchema),
    /** Larger than the daemon returns (or untracked files left out): `files` is its beginning. */
    truncated: Type.Boolean(),
  },
  { $id: "AgentChangesResult" },
);
export type AgentChangesResult = Static<typeof AgentChangesResultSchema>;
