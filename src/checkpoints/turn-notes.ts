/**
 * What the runtime knows about each checkpoint beyond the engine's log: the turn it was taken
 * before, that turn's prompt, the message it ended after, and how many files that turn changed (from `settle()` at
 * the turn's end, which the
 * engine's own count, against the previous checkpoint, cannot give). A small JSON file in the
 * shadow git dir; notes of checkpoints retention dropped are pruned at each write.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

const TurnNoteSchema = Type.Object({
  turn_id: Type.Optional(Type.String()),
  /** The user message that started the turn: where `conversation: true` rewinds to. */
  prompt_message_id: Type.Optional(Type.String()),
  files_changed: Type.Optional(Type.Integer({ minimum: 0 })),
  /** The conversation's newest message when the turn ended. */
  after_message_id: Type.Optional(Type.String({ minLength: 1 })),
});
export type TurnNote = Static<typeof TurnNoteSchema>;

const NotesSchema = Type.Record(Type.String(), TurnNoteSchema);
type Notes = Static<typeof NotesSchema>;

const notesFile = (gitDir: string) => join(gitDir, "shard-turn-notes.json");

/** A missing or damaged file is no notes: a listing then shows the engine's own counts. */
export function readTurnNotes(gitDir: string): Notes {
  try {
    const parsed: unknown = JSON.parse(readFileSync(notesFile(gitDir), "utf8"));
    return Value.Check(NotesSchema, parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** Merges `note` into checkpoint `id`'s; keeps only the notes of `kept` checkpoints. */
export function writeTurnNote(gitDir: string, id: string, note: TurnNote, kept: readonly string[]): void {
  const all = readTurnNotes(gitDir);
  const next: Notes = {};
  for (const keptId of kept) {
    const existing = all[keptId];
    if (existing !== undefined) next[keptId] = existing;
  }
  next[id] = { ...all[id], ...note };
  const file = notesFile(gitDir);
  writeFileSync(`${file}.tmp`, JSON.stringify(next));
  renameSync(`${file}.tmp`, file);
}
