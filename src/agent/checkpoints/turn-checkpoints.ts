/**
 * The runtime's checkpoints (docs/checkpoints.md): one before the first tool call of every turn
 * whose mode may change files, `settle()` at that turn's end, and the two commands. The engine
 * (src/checkpoints) loads at the first checkpoint or command, never at start-up. A checkpoint
 * that fails is reported through `report` and the turn goes on without one.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Checkpoints } from "../../checkpoints/checkpoints.ts";
import { checkpointsDir } from "../../checkpoints/checkpoints-dir.ts";
import { readTurnNotes, type TurnNote, writeTurnNote } from "../../checkpoints/turn-notes.ts";
import type { ModePolicy } from "../../contracts/permission-gate.ts";
import { describeError } from "../../support/describe-error.ts";
import { toolAllowed } from "../../tools/tool-pattern.ts";
import type {
  CheckpointDiffResult,
  ListCheckpointsResult,
  RestoreCheckpointResult,
} from "../../types/checkpoints.ts";
import { type Failure, failure } from "../../wire/errors.ts";

/** The tools that change files: a turn whose mode allows one of them gets a checkpoint. */
const WRITING_TOOLS = ["write", "edit", "bash"];

export interface TurnCheckpointsOptions {
  home: string;
  cwd: string;
  sessionId: string;
  /** A checkpoint that could not be taken or settled: a non-fatal `error` event. */
  report: (message: string) => void;
}

export function modeMayWrite(policy: ModePolicy): boolean {
  if (policy.denyMutating) return false;
  const allowed = policy.allowedTools;
  return allowed === undefined || WRITING_TOOLS.some((name) => toolAllowed(allowed, name));
}

export class TurnCheckpoints {
  private engine: Promise<Checkpoints | Failure> | undefined;
  /** The turn that already had its chance at a checkpoint (taken or failed): one try per turn. */
  private triedFor: string | undefined;
  /** The checkpoint taken before the running turn, settled at its end. */
  private taken: { turnId: string; checkpointId: string } | undefined;

  constructor(private readonly options: TurnCheckpointsOptions) {}

  private get gitDir(): string {
    return checkpointsDir(this.options.home, this.options.sessionId);
  }

  /** Before tool calls run in turn `turnId`; only the first call of a turn takes one. */
  async beforeTools(turnId: string, policy: ModePolicy): Promise<void> {
    if (this.triedFor === turnId || !modeMayWrite(policy)) return;
    this.triedFor = turnId;
    const engine = await this.open();
    if ("error" in engine)
      return this.options.report(`no checkpoint before this turn: ${engine.error.message}`);
    const made = await engine.checkpoint(`turn ${turnId}`);
    if (!made.ok) return this.options.report(`no checkpoint before this turn: ${made.error.message}`);
    this.taken = { turnId, checkpointId: made.checkpoint.checkpoint_id };
    await this.note(engine, made.checkpoint.checkpoint_id, { turn_id: turnId, files_changed: 0 });
  }

  /**
   * The end of turn `turnId`: what it changed is recorded against its checkpoint, with the
   * conversation's newest message then (`afterMessageId`), where clients draw the turn's marker.
   */
  async endTurn(turnId: string, afterMessageId?: string): Promise<void> {
    const taken = this.taken;
    if (taken?.turnId !== turnId) return;
    this.taken = undefined;
    const engine = await this.open();
    if ("error" in engine) return;
    const settled = await engine.settle();
    if (!settled.ok) return this.options.report(`checkpoint not settled: ${settled.error.message}`);
    await this.note(engine, taken.checkpointId, {
      files_changed: settled.files_changed,
      ...(afterMessageId !== undefined ? { after_message_id: afterMessageId } : {}),
    });
  }

  async list(): Promise<{ ok: true; data: ListCheckpointsResult } | Failure> {
    // A client that only looks (the web lists on every attach) creates no shadow repository.
    if (this.engine === undefined && !existsSync(join(this.gitDir, "HEAD"))) {
      return { ok: true, data: { checkpoints: [] } };
    }
    const engine = await this.open();
    if ("error" in engine) return engine;
    const listed = await engine.list();
    if (!listed.ok) return failure("INTERNAL_ERROR", listed.error.message);
    const notes = readTurnNotes(this.gitDir);
    const checkpoints = listed.checkpoints.map((c) => {
      const note = notes[c.checkpoint_id];
      return {
        checkpoint_id: c.checkpoint_id,
        ...(note?.turn_id !== undefined ? { turn_id: note.turn_id } : {}),
        created_at: c.created_at,
        files_changed: note?.files_changed ?? c.files_changed,
        ...(note?.after_message_id !== undefined ? { after_message_id: note.after_message_id } : {}),
      };
    });
    return { ok: true, data: { checkpoints } };
  }

  async diff(checkpointId: string): Promise<{ ok: true; data: CheckpointDiffResult } | Failure> {
    const engine = await this.open();
    if ("error" in engine) return engine;
    const diffed = await engine.diff(checkpointId);
    if (!diffed.ok) {
      const { code, message } = diffed.error;
      return failure(code === "NOT_FOUND" ? "NOT_FOUND" : "INTERNAL_ERROR", message);
    }
    return {
      ok: true,
      data: { checkpoint_id: checkpointId, files: diffed.files, truncated: diffed.truncated },
    };
  }

  async restore(
    checkpointId: string,
    force: boolean,
  ): Promise<{ ok: true; data: RestoreCheckpointResult } | Failure> {
    const engine = await this.open();
    if ("error" in engine) return engine;
    const restored = await engine.restore(checkpointId, { force });
    if (!restored.ok) {
      const { code, message } = restored.error;
      if (code === "CONFLICT") {
        return failure(
          "CONFLICT",
          `${message} (send restore_checkpoint again with force: true to overwrite them)`,
          { conflicts: restored.conflicts ?? [] },
        );
      }
      return failure(code === "NOT_FOUND" ? "NOT_FOUND" : "INTERNAL_ERROR", message);
    }
    await this.note(engine, restored.undo.checkpoint_id, { files_changed: restored.files.length });
    return { ok: true, data: { restored: restored.files, undo_checkpoint_id: restored.undo.checkpoint_id } };
  }

  private open(): Promise<Checkpoints | Failure> {
    this.engine ??= (async () => {
      try {
        const { Checkpoints } = await import("../../checkpoints/checkpoints.ts");
        const opened = await Checkpoints.open({ gitDir: this.gitDir, cwd: this.options.cwd });
        return opened.ok ? opened.checkpoints : failure("INTERNAL_ERROR", opened.error.message);
      } catch (err) {
        return failure("INTERNAL_ERROR", `checkpoints unavailable: ${describeError(err)}`);
      }
    })();
    return this.engine;
  }

  /** A note that cannot be written costs only its count in the listing; the turn goes on. */
  private async note(engine: Checkpoints, checkpointId: string, note: TurnNote): Promise<void> {
    try {
      const listed = await engine.list();
      const kept = listed.ok ? listed.checkpoints.map((c) => c.checkpoint_id) : [];
      writeTurnNote(this.gitDir, checkpointId, note, kept);
    } catch (err) {
      this.options.report(`checkpoint note not written: ${describeError(err)}`);
    }
  }
}
