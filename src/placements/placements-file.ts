/**
 * Reads `$SHARD_HOME/placements.json` (docs/placements.md). Read at each use, so an edit takes
 * effect at the next agent start without a daemon restart. A bad entry is skipped with its
 * reason, which is what an `agent.create` or a start naming it is told.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { describeError } from "../support/describe-error.ts";
import { isRecord } from "../support/is-record.ts";
import {
  CommandPlacementSchema,
  ContainerPlacementSchema,
  LOCAL_PLACEMENT,
  type NamedPlacement,
  PLACEMENT_NAME,
  SshPlacementSchema,
} from "./placement-config.ts";
import { hostProblem, imageProblem, mountPathProblem, userProblem } from "./safe-argument.ts";

export interface PlacementsFile {
  placements: Map<string, NamedPlacement>;
  /** Why an entry (by name) or the file ("") cannot be used. */
  problems: Map<string, string>;
}

export function placementsPath(home: string): string {
  return join(home, "placements.json");
}

export function loadPlacements(home: string): PlacementsFile {
  const path = placementsPath(home);
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
  } catch (err) {
    const missing = isRecord(err) && err.code === "ENOENT";
    const problems = new Map<string, string>();
    if (!missing) problems.set("", `${path}: ${describeError(err)}`);
    return { placements: new Map(), problems };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return fileProblem(`${path} is not valid JSON`);
  }
  return parsePlacements(parsed, path);
}

export function parsePlacements(parsed: unknown, path: string): PlacementsFile {
  const entries = isRecord(parsed) ? parsed.placements : undefined;
  if (!isRecord(entries)) return fileProblem(`${path}: must be an object with a "placements" object`);
  const placements = new Map<string, NamedPlacement>();
  const problems = new Map<string, string>();
  for (const [name, entry] of Object.entries(entries)) {
    const checked = parseEntry(name, entry);
    if (checked.ok) placements.set(name, checked.placement);
    else problems.set(name, `${path}: placement "${printable(name)}": ${checked.reason}`);
  }
  return { placements, problems };
}

type EntryCheck = { ok: true; placement: NamedPlacement } | { ok: false; reason: string };

function parseEntry(name: string, entry: unknown): EntryCheck {
  if (!PLACEMENT_NAME.test(name))
    return {
      ok: false,
      reason: "the name must be 1-40 letters, digits, _ or -, starting with a letter or digit",
    };
  if (name === LOCAL_PLACEMENT)
    return { ok: false, reason: `"${LOCAL_PLACEMENT}" is built in (this machine)` };
  if (!isRecord(entry)) return { ok: false, reason: "must be an object" };
  switch (entry.kind) {
    case "ssh": {
      if (!Value.Check(SshPlacementSchema, entry)) return schemaProblem(SshPlacementSchema, entry);
      const bad = hostProblem(entry.host) ?? (entry.user === undefined ? undefined : userProblem(entry.user));
      return bad === undefined ? { ok: true, placement: { ...entry, name } } : { ok: false, reason: bad };
    }
    case "container": {
      if (!Value.Check(ContainerPlacementSchema, entry))
        return schemaProblem(ContainerPlacementSchema, entry);
      if ((entry.image === undefined) === (entry.container === undefined))
        return {
          ok: false,
          reason: 'needs exactly one of "image" (run a new container) or "container" (exec in one)',
        };
      const bad =
        (entry.image !== undefined ? imageProblem("image", entry.image) : undefined) ??
        (entry.container !== undefined ? imageProblem("container", entry.container) : undefined) ??
        (entry.mounts ?? [])
          .map(
            (m) => mountPathProblem("mounts.source", m.source) ?? mountPathProblem("mounts.target", m.target),
          )
          .find((problem) => problem !== undefined);
      return bad === undefined ? { ok: true, placement: { ...entry, name } } : { ok: false, reason: bad };
    }
    case "command": {
      if (!Value.Check(CommandPlacementSchema, entry)) return schemaProblem(CommandPlacementSchema, entry);
      if (entry.argv.at(-1) !== "agent")
        return { ok: false, reason: '"argv" must end in the shard binary and "agent" (… "shard", "agent")' };
      return { ok: true, placement: { ...entry, name } };
    }
    default:
      return { ok: false, reason: '"kind" must be "ssh", "container" or "command"' };
  }
}

function schemaProblem(schema: TSchema, value: unknown): EntryCheck {
  const first = Value.Errors(schema, value).First();
  const field =
    first === undefined || first.path === "" ? "(entry)" : first.path.slice(1).replaceAll("/", ".");
  return { ok: false, reason: `${field}: ${first?.message ?? "does not match the schema"}` };
}

function fileProblem(reason: string): PlacementsFile {
  return { placements: new Map(), problems: new Map([["", reason]]) };
}

function printable(name: string): string {
  return JSON.stringify(name).slice(1, -1).slice(0, 60);
}
