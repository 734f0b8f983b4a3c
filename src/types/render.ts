/** Structured tool output that clients render: text, key/value, diffs and trees. */
import { type Static, Type } from "@sinclair/typebox";

/** Unified-diff hunk (pinned here: the standard unified-diff shape; docs/protocol.md, `Hunk`). */
export const HunkSchema = Type.Object(
  {
    old_start: Type.Number(),
    old_lines: Type.Number(),
    new_start: Type.Number(),
    new_lines: Type.Number(),
    lines: Type.Array(Type.String()),
  },
  { $id: "Hunk" },
);
export type Hunk = Static<typeof HunkSchema>;

export const TreeNodeSchema = Type.Recursive(
  (Self) =>
    Type.Object({
      name: Type.String(),
      kind: Type.Optional(Type.Union([Type.Literal("file"), Type.Literal("dir")])),
      children: Type.Optional(Type.Array(Self)),
    }),
  { $id: "TreeNode" },
);
export type TreeNode = Static<typeof TreeNodeSchema>;

export const RenderDescriptorSchema = Type.Union(
  [
    Type.Object({ kind: Type.Literal("text"), text: Type.String() }),
    Type.Object({
      kind: Type.Literal("kv"),
      pairs: Type.Array(Type.Object({ k: Type.String(), v: Type.String() })),
    }),
    Type.Object({ kind: Type.Literal("diff"), path: Type.String(), hunks: Type.Array(HunkSchema) }),
    Type.Object({ kind: Type.Literal("tree"), root: TreeNodeSchema }),
    Type.Object({
      kind: Type.Literal("progress"),
      label: Type.String(),
      current: Type.Number(),
      total: Type.Optional(Type.Number()),
    }),
    Type.Object({
      kind: Type.Literal("status"),
      label: Type.String(),
      tone: Type.Union([Type.Literal("info"), Type.Literal("warn"), Type.Literal("error")]),
    }),
    Type.Object({
      kind: Type.Literal("command"),
      command: Type.String(),
      exitCode: Type.Optional(Type.Number()),
      durationMs: Type.Optional(Type.Number()),
    }),
    Type.Object({
      kind: Type.Literal("path_list"),
      paths: Type.Array(
        Type.Object({
          path: Type.String(),
          kind: Type.Union([Type.Literal("file"), Type.Literal("dir")]),
          hint: Type.Optional(Type.String()),
        }),
      ),
    }),
    Type.Object({
      kind: Type.Literal("code"),
      path: Type.Optional(Type.String()),
      lang: Type.Optional(Type.String()),
      text: Type.String(),
    }),
  ],
  { $id: "RenderDescriptor" },
);
export type RenderDescriptor = Static<typeof RenderDescriptorSchema>;
