/**
 * `shard placement git`: git on a placement for the daemon's workspaces and Changes view
 * (docs/placements.md, workspaces and the Changes view). The daemon runs it through the
 * placement (the same argv as `shard session export`) with one JSON request on stdin and reads
 * one JSON answer on stdout. Every git call here distrusts the repository's config as the
 * daemon does at home (src/git/distrusting-git.ts): the far side's `.git/config` and hooks run
 * nothing.
 */
import { type Static, Type } from "@sinclair/typebox";

/** What the far side sends back of one git run at most; the daemon reads a little more (JSON). */
export const MAX_REMOTE_STDOUT_BYTES = 8 * 1024 * 1024;
export const MAX_REMOTE_TIMEOUT_MS = 600_000;

const Cwd = Type.String({ minLength: 1, pattern: "^/" });

export const GitRequestSchema = Type.Union([
  Type.Object(
    {
      op: Type.Literal("git"),
      /** Absolute: a placement's path, never resolved against the far side's own cwd. */
      cwd: Cwd,
      args: Type.Array(Type.String(), { maxItems: 1000 }),
      env: Type.Optional(Type.Record(Type.String({ pattern: "^[A-Z_][A-Z0-9_]*$" }), Type.String())),
      timeout_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_REMOTE_TIMEOUT_MS })),
      max_stdout_bytes: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_REMOTE_STDOUT_BYTES })),
    },
    { additionalProperties: false },
  ),
  /** The working tree as a tree object (src/daemon/changes/work-tree-snapshot.ts), made there. */
  Type.Object({ op: Type.Literal("snapshot"), cwd: Cwd }, { additionalProperties: false }),
  /** A path's canonical form there, or null when nothing is there. */
  Type.Object({ op: Type.Literal("realpath"), path: Cwd }, { additionalProperties: false }),
  /** Where that side keeps the daemon's worktrees (`$SHARD_HOME/worktrees`, made 0700). */
  Type.Object({ op: Type.Literal("worktrees_dir") }, { additionalProperties: false }),
  /** Removes `path` and all below it, only while it is below `dir` (symlinks resolved). */
  Type.Object({ op: Type.Literal("remove_below"), path: Cwd, dir: Cwd }, { additionalProperties: false }),
]);
export type GitRequest = Static<typeof GitRequestSchema>;

export const GitRunAnswerSchema = Type.Object({
  code: Type.Integer(),
  stdout: Type.String(),
  stderr: Type.String(),
  cut: Type.Optional(Type.Boolean()),
});

export const RealpathAnswerSchema = Type.Object({ real: Type.Union([Type.String(), Type.Null()]) });
export const WorktreesDirAnswerSchema = Type.Object({ path: Type.String({ minLength: 1, pattern: "^/" }) });
export const RemovedAnswerSchema = Type.Object({ removed: Type.Boolean() });

export const SnapshotAnswerSchema = Type.Union([
  Type.Object({
    ok: Type.Literal(true),
    /** The repository's top level there, where the daemon's next git calls run. */
    root: Type.String({ minLength: 1, pattern: "^/" }),
    tree: Type.String({ pattern: "^[0-9a-f]{40,64}$" }),
    head: Type.Optional(Type.String({ pattern: "^[0-9a-f]{40,64}$" })),
    truncated: Type.Boolean(),
  }),
  Type.Object({ ok: Type.Literal(false), notGit: Type.Literal(true) }),
  Type.Object({ ok: Type.Literal(false), notGit: Type.Literal(false), message: Type.String() }),
]);
export type SnapshotAnswer = Static<typeof SnapshotAnswerSchema>;
