/**
 * `placement.list` (docs/protocol-additions.md §24): where the daemon can run agents, with each
 * placement's live runtimes and cap, so a new-agent form offers the ones with room.
 */
import { type Static, Type } from "@sinclair/typebox";
import { requiredCommandId } from "./envelope.ts";

export const PlacementListCommandSchema = Type.Object(
  { type: Type.Literal("placement.list"), id: requiredCommandId },
  { $id: "PlacementListCommand" },
);
export type PlacementListCommand = Static<typeof PlacementListCommandSchema>;

export const PlacementInfoSchema = Type.Object(
  {
    /** `local` (this machine) or a name from `$SHARD_HOME/placements.json`. */
    name: Type.String({ minLength: 1 }),
    /** Absent for an entry that cannot be used (see `problem`). */
    kind: Type.Optional(
      Type.Union([
        Type.Literal("local"),
        Type.Literal("ssh"),
        Type.Literal("container"),
        Type.Literal("command"),
      ]),
    ),
    /** Runtimes starting, running or stopping there now. */
    live: Type.Integer({ minimum: 0 }),
    /** Its cap (`max_runtimes`, else the daemon's `--max-runtimes`). */
    max: Type.Integer({ minimum: 1 }),
    /** Set when its placements.json entry cannot be used: why. Nothing starts there. */
    problem: Type.Optional(Type.String()),
  },
  { $id: "PlacementInfo" },
);
export type PlacementInfo = Static<typeof PlacementInfoSchema>;

export const PlacementListResultSchema = Type.Object(
  { placements: Type.Array(PlacementInfoSchema) },
  { $id: "PlacementListResult" },
);
